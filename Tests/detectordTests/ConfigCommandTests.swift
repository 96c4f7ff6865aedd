import Foundation
import Testing

@Suite struct ConfigCommandTests {
    @Test func aGoodFileSaysOkWithASummary() throws {
        let output = try DetectordProcess.run(["config", "check", "config/demo.toml"], in: DetectordProcess.packageRoot)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "config/demo.toml: ok")
        #expect(lines.contains("  person:   Ana Pereira (+351912345678, PT)"))
        #expect(lines.contains("  contacts: 1: Rui (console)"))
        #expect(lines.contains("  detector: cycling, standard sensitivity"))
        #expect(lines.contains { $0.hasPrefix("  sensor:   simulated mpu6050 measuring ") && $0.hasSuffix("/Datasets/demo/bike-crash.detrec, 100 Hz") }, "\(lines)")
        #expect(lines.contains("  channels: console"))
        #expect(lines.contains("  api:      127.0.0.1:8180"))
    }

    @Test func aBrokenFileListsEveryIssueWithItsLineAndExits65() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("config-check-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("broken.toml").path
        try """
            [person]
            name = "Ana Pereira"
            phone = "+351 912 345 678"
            country = "PT"

            [[contacts]]
            name = "Rui"
            phone = "+351913333333"
            channel = "sms"

            [sensor]
            source = "i2c"
            rat_hz = 200
            [sensor.i2c]
            bus = 1

            [channels.webhook]
            url = "https://example.org/hook"
            secret = "top-secret-value-1234"
            timeout_seconds = "ten"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let output = try DetectordProcess.run(["config", "check", file])
        #expect(output.status == 65)
        #expect(output.standardOutput.isEmpty)
        let lines = output.standardError.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(file):3:9: person.phone: \"+351 912 345 678\" is not an E.164 number: + and the country code, then up to 15 digits, no spaces (+351912345678)",
            "\(file):9:11: contacts[1].channel: \"sms\" is not configured; add a [channels.sms] table or choose a configured channel",
            "\(file):13:1: sensor.rat_hz: unknown key \"rat_hz\"; did you mean rate_hz?",
            "\(file):20:19: channels.webhook.timeout_seconds: is text; expected a number from 1 to 300",
        ])
        #expect(!output.standardError.contains("top-secret-value-1234"))
    }

    @Test func aSyntaxErrorAndAMissingFileAreReportedToo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("config-check-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("syntax.toml").path
        try "[person]\nname = \"Ana Pereira\"\nphone = \"+351912345678\n".write(toFile: file, atomically: true, encoding: .utf8)
        let syntax = try DetectordProcess.run(["config", "check", file])
        #expect(syntax.status == 65)
        #expect(syntax.standardError.hasPrefix("\(file):3:"))
        #expect(syntax.standardError.contains("not valid TOML"))

        let missing = try DetectordProcess.run(["config", "check", dir.appendingPathComponent("none.toml").path])
        #expect(missing.status == 65)
        #expect(missing.standardError == "\(dir.path)/none.toml: cannot open \(dir.path)/none.toml: No such file or directory\n")
    }
}
