import FallDetect
import Foundation
import Testing
@testable import detectord

@Suite struct DatasetDescriptionFileTests {
    static var descriptions: String { DetectordProcess.packageRoot.appendingPathComponent("Datasets/descriptions").path }

    private func issues(_ text: String) -> [String] {
        do {
            _ = try DatasetDescriptionFile.parse(text: text, path: "d.toml")
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func theShippedHAPTDescriptionReads() throws {
        let d = try DatasetDescriptionFile.load(path: Self.descriptions + "/hapt.toml")
        #expect(d.name == "HAPT")
        #expect(d.kind == .continuous)
        #expect(d.files == "recordings/*.csv")
        #expect(d.axes == .mapping(HAPTDataset.axisMapping))
        #expect(d.labels == .column(.name("label")))
        #expect(d.unlabelledValue == -1)
        #expect(d.removalMargin == LabelledRecording.removalMargin)
        #expect(d.labelNames == HAPTDataset.labelNames)
        #expect(d.falls == DatasetFallSource.none)
        #expect(d.format.sampleRate == HAPTDataset.sampleRate)
        #expect(d.format.time == nil)
        #expect(d.format.angularRateUnit == .radiansPerSecond)
    }

    @Test func theShippedSisFallDescriptionReads() throws {
        let d = try DatasetDescriptionFile.load(path: Self.descriptions + "/sisfall.toml")
        #expect(d.kind == .trials(fallTrials: "^F"))
        #expect(d.axes == .mapping(.sisFall))
        #expect(d.labels == .file(try PathTemplate("SisFall_enhanced/{parent}/{file}")))
        #expect(d.falls == .labels(values: [2]))
        #expect(d.format.accelerationScale == 1.0 / 256)
        #expect(d.format.angularRateScale == 1 / 14.375)
        #expect(d.format.sampleRate == 200)
        #expect(d.format.acceleration.x == .index(0) && d.format.angularRate?.z == .index(5))
    }

    @Test func autoAxesAreAcceptedInTheFile() throws {
        let d = try DatasetDescriptionFile.parse(
            text: "kind = \"continuous\"\nfiles = \"*.csv\"\naxes = \"auto\"\n[columns]\nax = 0\nay = 1\naz = 2\n[units]\nsample_rate = 50\n[falls]\nfrom = \"none\"\n",
            path: "d.toml")
        #expect(d.axes == .auto)
    }

    @Test func everyIssueIsReportedWithItsLineAndColumn() {
        let found = issues(
            """
            kind = "trial"
            files = "/data/*.csv"
            subject = "user[0-9]+"
            axes = "x=+z,y=+z,z=+x"
            [columns]
            ax = "acc-x"
            ay = -1
            az = 2.5
            gx = 3
            [units]
            sample_rate = 0
            acceleration = "G"
            [labels]
            file = "lab/{folder}/{file}"
            [labels.names]
            walk = "walking"
            [falls]
            from = "labels"
            vaules = [2]
            """)
        #expect(
            found == [
                "d.toml:1:8: kind: \"trial\" is not one of continuous, trials",
                "d.toml:2:9: files: \"/data/*.csv\": expected a relative path pattern such as recordings/*.csv (no leading /, no .., no **)",
                "d.toml:3:11: subject: \"user[0-9]+\" has 0 capture groups; expected 1, around the subject's part of the path",
                "d.toml:4:8: axes: \"x=+z,y=+z,z=+x\" is not a mapping; expected x=±a,y=±b,z=±c over x, y, z once each (x=+z,y=-y,z=+x), or auto",
                "d.toml:7:6: columns.ay: is -1; expected a 0-based column index",
                "d.toml:8:6: columns.az: is a number with a fraction; expected a header name in quotes or a 0-based column index",
                "d.toml:9:1: columns.gx: give all of gx, gy and gz or none",
                "d.toml:11:15: units.sample_rate: is 0; expected a number from 1 to 100000",
                "d.toml:12:16: units.acceleration: \"G\" is not one of g, m/s2",
                "d.toml:14:8: labels.file: \"lab/{folder}/{file}\": unknown placeholder {folder}; expected {file}, {name}, {ext}, {parent}, {dir}, {subject}",
                "d.toml:16:1: labels.names.walk: \"walk\" is not a label value; expected a whole number such as 1 = \"walking\"",
                "d.toml:17:1: falls.values: is required: the label values that mark a fall, such as [2]",
                "d.toml:19:1: falls.vaules: unknown key \"vaules\"; did you mean values?",
            ], "\(found.joined(separator: "\n"))")
    }

    @Test func trialsNeedFallTrialsAndFalls() {
        let found = issues(
            """
            kind = "trials"
            files = "*/*.txt"
            axes = "x=+x,y=+y,z=+z"
            [columns]
            time = 0
            ax = 1
            ay = 2
            az = 3
            [falls]
            from = "none"
            """)
        #expect(
            found == [
                "d.toml: fall_trials: is required: with kind = \"trials\", a regular expression that matches the names of fall trials, such as ^F",
                "d.toml:10:8: falls.from: kind = \"trials\" needs its falls: from = \"labels\" or \"span_file\"",
            ], "\(found.joined(separator: "\n"))")
    }

    @Test func notTOMLIsReportedWhereTheParserStopped() {
        let found = issues("kind = \"continuous\"\nfiles = \n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("d.toml:2:") == true)
    }
}
