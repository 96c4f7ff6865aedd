import Testing

@testable import FallDetect

@Suite struct SisFallTrialNameTests {
    @Test func parsesFallName() throws {
        let n = try SisFallTrialName(parsing: "F05_SA12_R03")
        #expect(n.activityCode == "F05")
        #expect(n.isFall)
        #expect(n.subject == "SA12" && n.subjectNumber == 12 && n.group == .young)
        #expect(n.repetition == 3)
        #expect(n.activity?.summary == "Fall forward while jogging caused by a trip")
        #expect(n.description == "F05_SA12_R03")
    }

    @Test func groupComesFromTheNameNotTheFolder() throws {
        let n = try SisFallTrialName(parsing: "SisFall_dataset/SA15/D17_SE15_R02.txt")
        #expect(n.subject == "SE15" && n.group == .elderly && !n.isFall && n.repetition == 2)
    }

    @Test(arguments: [
        "", "F05_SA12", "F05_SA12_R03_x", "X05_SA12_R03", "D20_SA01_R01", "F16_SA01_R01", "F05_SX12_R03",
        "F05_SA1_R03", "F05_SA+1_R03", "F05_SA12_03", "F05_SA12_R3", "F05_SA12_R00", "F05_SA00_R01",
        "f05_SA12_R03", "F05_SA12_R03.csv", "Readme.txt",
    ])
    func rejectsBadNames(text: String) {
        let error = #expect(throws: FallDetectError.self) { try SisFallTrialName(parsing: text, path: "p/\(text)") }
        #expect(error?.code == .badFileName)
        #expect(error?.path == "p/\(text)")
    }

    @Test func ordersBySubjectActivityRepetition() throws {
        let names = try ["F01_SA02_R01", "D01_SA02_R01", "D07_SA01_R05", "D07_SA01_R04", "F15_SE01_R01"]
            .map { try SisFallTrialName(parsing: $0) }
        #expect(names.sorted().map(\.description) == ["D07_SA01_R04", "D07_SA01_R05", "D01_SA02_R01", "F01_SA02_R01", "F15_SE01_R01"])
    }

    @Test func activityTableMatchesTheReadme() {
        #expect(SisFallActivity.all.count == 34)
        #expect(SisFallActivity.all.filter(\.isFall).count == 15)
        #expect(SisFallActivity.named("D01")?.trials == 1 && SisFallActivity.named("D01")?.durationSeconds == 100)
        #expect(SisFallActivity.named("D17")?.durationSeconds == 25)
        #expect(SisFallActivity.named("F15")?.durationSeconds == 15)
        // Young subjects: 4 + 15·5 ADL trials and 15·5 falls; elderly: 4 + 11·5 ADL, no falls (but SE06).
        #expect(SisFallActivity.expected(forSubject: "SA01").reduce(0) { $0 + $1.trials } == 154)
        #expect(SisFallActivity.expected(forSubject: "SE01").reduce(0) { $0 + $1.trials } == 59)
        #expect(SisFallActivity.expected(forSubject: "SE06").reduce(0) { $0 + $1.trials } == 134)
    }
}
