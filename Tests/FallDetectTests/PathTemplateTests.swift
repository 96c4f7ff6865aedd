import Testing
@testable import FallDetect

@Suite struct PathTemplateTests {
    @Test func buildsSisFallsLabelPath() throws {
        let template = try PathTemplate("SisFall_enhanced/{parent}/{file}")
        #expect(template.path(for: "SisFall_dataset/SA01/D01_SA01_R01.txt", subject: "SA01") == "SisFall_enhanced/SA01/D01_SA01_R01.txt")
    }

    @Test func everyPlaceholder() throws {
        let template = try PathTemplate("labels/{dir}/{subject}-{name}.{ext}.lab")
        #expect(template.path(for: "a/b/walk.csv", subject: "p1") == "labels/a/b/p1-walk.csv.lab")
    }

    @Test func anUnknownPlaceholderIsAnError() {
        #expect(throws: FallDetectError.self) { try PathTemplate("x/{folder}/{file}") }
        #expect(throws: FallDetectError.self) { try PathTemplate("x/{file") }
        #expect(throws: FallDetectError.self) { try PathTemplate("x/file}") }
    }
}
