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
    }
}
