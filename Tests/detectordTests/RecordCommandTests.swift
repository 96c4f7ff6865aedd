import FallDetect
import Foundation
import Testing

/// `detectord record` and `run --record` on a simulated chip: what a user records is the stream
/// the detector saw, in the project's format, readable and replayable.
@Suite struct RecordCommandTests {
    static func simulatedSensor(motion: String) -> String {
        """
        [sensor]
        source = "simulated"
        rate_hz = 200

        [sensor.simulated]
        chip = "lsm6dso"
        motion = "\(motion)"
        """
    }

    @Test func recordsTheSimulatedChipForTheSecondsAsked() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: "unused", sensor: Self.simulatedSensor(motion: DaemonTestSetup.demo("walking.detrec")))
        let out = setup.directory.appendingPathComponent("walk.detrec").path
        let output = try DetectordProcess.run(["record", "--config", setup.configPath, "--out", out, "--seconds", "2", "--title", "test walk"])
        #expect(output.status == 0, "\(output.standardError)")
        let recording = try RecordingReader().read(path: out).recording
        // LSM6DSO has no 200 Hz rate: the driver says which it chose, and the file has its samples.
        #expect(output.standardError.contains("has no 200 Hz rate; it runs at 208 Hz"), "\(output.standardError)")
        #expect(recording.info.sensor.sampleRate == 208, "the header says what the samples are")
        #expect((300...430).contains(recording.samples.count), "\(recording.samples.count)")
        #expect(recording.info.title == "test walk")
        #expect(recording.info.sensor.sensor.hasPrefix("LSM6DSO"))
        #expect(zip(recording.samples, recording.samples.dropFirst()).allSatisfy { $0.timestampNanoseconds < $1.timestampNanoseconds })
        #expect(output.standardError.contains("record: \(out): \(recording.samples.count) samples"))
        // Replayable as it is.
        let replay = try DetectordProcess.run(["replay", "--fast", out])
        #expect(replay.status == 0, "\(replay.standardError)")
    }

    @Test func runRecordWritesWhatTheDetectorSaw() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), speed: 8)
        let out = setup.directory.appendingPathComponent("day.detrec").path
        let daemon = try setup.start(["--exit-when-idle", "--record", out])
        #expect(daemon.waitForExit(timeout: 60))
        #expect(daemon.terminationStatus == 0, "\(daemon.logLines.joined(separator: "\n"))")
        let stop = daemon.logLines.first { DaemonProcess.eventType(of: $0) == "stop" } ?? ""
        let recorded = daemon.logLines.first { DaemonProcess.eventType(of: $0) == "recording" } ?? ""
        let recording = try RecordingReader().read(path: out).recording
        #expect(String(recording.samples.count) == DaemonProcess.value("samples", in: stop), "\(stop) / \(recorded)")
        #expect(DaemonProcess.value("samples", in: recorded) == String(recording.samples.count))
        #expect(DaemonProcess.value("dropped_samples", in: recorded) == "0")
        // Personal data: the recording and the database are the service user's alone.
        for path in [out, setup.databasePath] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path): \(String(mode ?? -1, radix: 8))")
        }
    }

    @Test func aMissingConfigurationStopsWithItsIssues() throws {
        let output = try DetectordProcess.run(["record", "--config", "/nonexistent/d.toml", "--out", "/tmp/x.detrec", "--seconds", "1"])
        #expect(output.status == 65)
        #expect(output.standardError.contains("/nonexistent/d.toml"))
    }
}
