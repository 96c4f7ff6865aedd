import Foundation
import Testing

@Suite struct DetectordTests {
    @Test func helpNamesEverySubcommand() throws {
        let output = try DetectordProcess.run(["--help"])
        #expect(output.status == 0)
        for name in ["replay", "synth", "probe", "drill", "status", "bench", "train", "config", "run", "ctl", "record", "pair"] {
            #expect(output.standardOutput.contains("\n  \(name) "), "missing \(name)")
        }
    }

    @Test func runRefusesToStartOnAConfigurationItCannotRead() throws {
        let output = try DetectordProcess.run(["run", "--config", "/nonexistent/detectord.toml"])
        #expect(output.status == 65)
        #expect(output.standardError.contains("/nonexistent/detectord.toml"), "\(output.standardError)")
        #expect(output.standardError.contains("not starting"))
    }

    @Test func pairRefusesAConfigurationItCannotRead() throws {
        let output = try DetectordProcess.run(["pair", "--config", "/nonexistent/detectord.toml"])
        #expect(output.status == 65)
        #expect(output.standardError.contains("/nonexistent/detectord.toml"), "\(output.standardError)")
    }

    @Test func probeReportsEachPartAndFailsWithoutHardware() throws {
        let output = try DetectordProcess.run(["probe", "127.0.0.1:1", "--i2c-bus", "/dev/null", "--seconds", "0.5"])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("gps:       disconnected (gpsd at 127.0.0.1:1: can't connect to host/port pair (code -6))"))
        #expect(text.contains("gps:       0 reports, quality none, no trusted position"))
        #expect(text.contains("i2c:       /dev/null at 0x68 register 0x75: read 1 bytes: Inappropriate ioctl for device (errno 25)"), "\(text)")
        #expect(text.contains("bluetooth: "))
    }

    @Test func probeChecksOnlyThePartsAsked() throws {
        let output = try DetectordProcess.run(["probe", "--i2c", "--i2c-bus", "/dev/null"])
        #expect(output.status == 1)
        #expect(!output.standardOutput.contains("gps:"))
        #expect(!output.standardOutput.contains("bluetooth:"))
    }

    @Test func replayOfACSVFileReportsBadRowsAndGoesOn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("detectord-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "time,ax,ay,az,gx,gy,gz\n"
        for i in 0..<200 { text += "\(Double(i) / 100),0,0,\(i == 50 ? 2.5 : 1),0,0,0\n" }
        text += "2.0,x,0,1,0,0,0\n"
        try text.write(to: dir.appendingPathComponent("walk.csv"), atomically: true, encoding: .utf8)

        let output = try DetectordProcess.run(["replay", "--fast", "walk.csv"], in: dir)
        #expect(output.status == 0)
        #expect(output.standardError.contains("walk.csv:202: ax: \"x\" is not a number; row skipped"))
        #expect(output.standardOutput.contains("walk  2.0 s  200 samples  peak |a| 2.50 g at 0.50 s"))
        #expect(output.standardOutput.contains("1 recording, 2.0 s of data, 200 samples"))
    }

    @Test func replayOfAMissingPathNamesIt() throws {
        let output = try DetectordProcess.run(["replay", "/nonexistent/walk.detrec"])
        #expect(output.status == 66)
        #expect(output.standardError.contains("/nonexistent/walk.detrec: no such file or directory"))
    }

    @Test func replayRejectsNonsenseSpeeds() throws {
        let output = try DetectordProcess.run(["replay", "--speed", "0", "x.csv"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("--speed must be a positive number"))
    }
}
