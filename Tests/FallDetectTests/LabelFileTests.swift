import Foundation
import Testing
@testable import FallDetect

@Suite struct LabelFileTests {
    private func parse(_ text: String) throws(FallDetectError) -> [Int16] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(FallDetectError) in try LabelFile.parse(buffer, path: "l.txt") }
        }.get()
    }

    @Test func readsOneWholeNumberALine() throws {
        #expect(try parse("0\r\n1\n 2 \n-1\n+3") == [0, 1, 2, -1, 3])
        #expect(try parse("0\n0\n\n\n") == [0, 0])
    }

    @Test func errorsNameTheLine() {
        #expect(throws: FallDetectError(.malformedRow, "unexpected byte 97 (labels are whole numbers, one a line)", path: "l.txt", line: 2, field: "label")) {
            try parse("0\na\n")
        }
        #expect(throws: FallDetectError(.malformedRow, "blank line before more labels", path: "l.txt", line: 2, field: "label")) {
            try parse("0\n\n1\n")
        }
        #expect(throws: FallDetectError.self) { try parse("1 2\n") }
        #expect(throws: FallDetectError.self) { try parse("40000\n") }
    }
}
