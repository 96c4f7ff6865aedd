import Foundation
import Testing
@testable import FallDetect

@Suite struct FileGlobTests {
    @Test func matchesOneComponentAtATimeInSortedOrder() throws {
        let root = try SharedData.temporaryDirectory("glob")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["d/SA02/F01.txt", "d/SA01/D01.txt", "d/SA01/.hidden.txt", "d/Readme.txt", "d/SA01/sub/x.txt"] {
            try FileManager.default.createDirectory(atPath: root + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: root + "/" + path, contents: Data()))
        }
        #expect(try FileGlob("d/*/*.txt").matches(in: root) == ["d/SA01/D01.txt", "d/SA02/F01.txt"])
        #expect(try FileGlob("d/*.txt").matches(in: root) == ["d/Readme.txt"])
        #expect(try FileGlob("d/SA0[2]/F??.txt").matches(in: root) == ["d/SA02/F01.txt"])
    }

    @Test func refusesPatternsThatLeaveTheRoot() {
        for pattern in ["/etc/*.csv", "../x/*.csv", "a/**/b.csv", ""] {
            #expect(throws: FallDetectError.self) { try FileGlob(pattern) }
        }
    }
}
