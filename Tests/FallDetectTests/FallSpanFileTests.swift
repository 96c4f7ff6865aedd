import Testing
@testable import FallDetect

@Suite struct FallSpanFileTests {
    @Test func readsRowsByPathNameOrStem() throws {
        let file = try FallSpanFile(text: "file,start,end\n# a comment\nwalks/a.csv, 1.5, 2\nb.csv,0,1\nc,3,4\n", path: "falls.csv")
        #expect(file.spans(for: "walks/a.csv") == [1.5...2])
        #expect(file.spans(for: "x/b.csv") == [0...1])
        #expect(file.spans(for: "y/c.csv") == [3...4])
        #expect(file.spans(for: "d.csv").isEmpty)
    }

    @Test func aBadRowNamesItsLine() {
        #expect(throws: FallDetectError(.malformedRow, "start and end must be seconds", path: "falls.csv", line: 3, field: "end")) {
            try FallSpanFile(text: "file,start,end\na.csv,1,2\nb.csv,1,x\n", path: "falls.csv")
        }
        #expect(throws: FallDetectError.self) { try FallSpanFile(text: "a.csv,2,1\n", path: "falls.csv") }
    }
}
