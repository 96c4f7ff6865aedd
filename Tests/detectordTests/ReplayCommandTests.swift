import FallDetect
import Foundation
import Testing

@Suite struct ReplayCommandTests {
    /// What `make run` shows: the demo fall and crash detected as they happen, the walk, the
    /// sitting down and the lying down not.
    @Test func theDemoFallAndCrashAreDetectedAndTheDailyActivitiesAreNot() throws {
        let demo = DetectordProcess.packageRoot.appendingPathComponent("Datasets/demo").path
        let output = try DetectordProcess.run(["replay", demo, "--fast", "--profile", "cycling"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let detections = lines.filter { $0.contains(" s  fall (") || $0.contains(" s  crash (") || $0.contains(" s  free-fall (") }
        #expect(detections.contains { $0.hasPrefix("forward-fall: ") && $0.contains("fall (learned") })
        #expect(detections.contains { $0.hasPrefix("bike-crash: ") && $0.contains("crash (crash") && $0.contains("km/h") })
        for quiet in ["walking", "sitting-down", "lying-down"] {
            #expect(!detections.contains { $0.hasPrefix(quiet + ":") }, "\(quiet)")
        }
        #expect(lines.last?.contains("\(detections.count) detections (profile cycling)") == true, "\(lines.last ?? "")")
        // The stages after the fall follow it: the demo faller lies still and does not get up.
        #expect(lines.contains { $0.hasPrefix("forward-fall: ") && $0.contains(" s  confirmed: the fall at 18.") && $0.contains("lying still for 10") })
        #expect(lines.contains { $0.hasPrefix("forward-fall: ") && $0.contains(" s  stayed down: the fall at 18.") })
        #expect(!lines.contains { $0.contains("recovered:") })
        #expect(!output.standardError.contains("gyroscope"), "\(output.standardError)")
    }

    /// A recording whose gyroscope reports 800 °/s swings while the accelerometer reads a still,
    /// upright body: replay says the sensor is suspect, once, naming the recording.
    @Test func aGyroscopeReportingImpossibleTurnsIsReported() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-gyro-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sensor = SensorInfo(sensor: "test", device: "loose mount", accelerometerRange: 16, gyroscopeRange: 2000, sampleRate: 100)
        let samples = (0..<2000).map { i in
            let t = Float(i) / 100
            let w: Float = i < 300 ? 0 : 800 * sin(2 * .pi * 2 * t) + 320
            return IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1), angularRate: SIMD3(w, 0, 0))
        }
        let path = dir.appendingPathComponent("loose.detrec").path
        try RecordingWriter.write(Recording(info: RecordingInfo(sensor: sensor, title: "loose"), samples: samples), to: path)
        let output = try DetectordProcess.run(["replay", path, "--fast"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("warning: loose: the gyroscope reported turns no body makes"), "\(output.standardError)")
        #expect(output.standardError.contains("1 time;"), "\(output.standardError)")
    }

    @Test func noDetectDecodesOnlyAndBadChoicesAreRefused() throws {
        let demo = DetectordProcess.packageRoot.appendingPathComponent("Datasets/demo/forward-fall.detrec").path
        let plain = try DetectordProcess.run(["replay", demo, "--fast", "--no-detect"])
        #expect(plain.status == 0)
        #expect(!plain.standardOutput.contains(" s  fall ("))
        #expect(!plain.standardOutput.contains("detection"))
        let multiphase = try DetectordProcess.run(["replay", demo, "--fast", "--fall-detector", "multiphase"])
        #expect(multiphase.standardOutput.contains("fall (multiphase"), "\(multiphase.standardOutput)")
        let profile = try DetectordProcess.run(["replay", demo, "--profile", "skiing"])
        #expect(profile.status == 64)
        #expect(profile.standardError.contains("--profile must be one of walking, cycling, motorcycling, car"))
        let sensitivity = try DetectordProcess.run(["replay", demo, "--sensitivity", "max"])
        #expect(sensitivity.status == 64)
        // A rate no body-worn sensor has: its period in nanoseconds would overflow the times.
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("replay-rate-\(UUID()).csv")
        try "time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n".write(to: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: csv) }
        for rate in ["0.000001", "5", "20000"] {
            let refused = try DetectordProcess.run(["replay", csv.path, "--fast", "--csv-rate", rate])
            #expect(refused.status == 64 && refused.standardError.contains("--csv-rate must lie in 10...10000 Hz"), "\(rate): \(refused.standardError)")
        }
        let taken = try DetectordProcess.run(["replay", csv.path, "--fast", "--no-detect", "--csv-rate", "50"])
        #expect(taken.status == 0, "\(taken.standardError)")
    }
}
