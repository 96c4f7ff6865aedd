import FallDetect
import Logging
import Testing
@testable import detectord

/// A profile chosen on the page is built before it is saved, and a saved one that no longer runs
/// gives way at start; `make` stands in for a sensor on which the cycling profile cannot run.
@Suite struct DetectorSwitchTests {
    struct CannotRun: Error {}

    static let make: @Sendable (DetectionProfile) throws -> DetectionPipeline = { profile in
        if profile.name == "cycling" { throw FallDetectError(.invalidArgument, "a 5 Hz low-pass needs a sample rate above twice that", field: "sampleRate") }
        if profile.name == "car" { throw CannotRun() }
        return try DetectionPipeline(profile: profile, sampleRate: 100)
    }

    @Test func aProfileThatCannotRunIsRefusedNamingWhy() throws {
        let detectorSwitch = DetectorSwitch(profile: "walking", sensitivity: "standard", make: Self.make)
        #expect(throws: Never.self) { try detectorSwitch.prepare(try DetectorChoice(profile: "motorcycling", sensitivity: "high")) }
        do throws(FallDetectError) {
            _ = try detectorSwitch.prepare(try DetectorChoice(profile: "cycling", sensitivity: "standard"))
            Issue.record("cycling was built")
        } catch {
            #expect(error.field == "profile")
            #expect(error.message.contains("cycling") && error.message.contains("5 Hz low-pass"), "\(error.message)")
        }
        do throws(FallDetectError) {
            _ = try detectorSwitch.prepare(try DetectorChoice(profile: "car", sensitivity: "standard"))
            Issue.record("car was built")
        } catch {
            #expect(error.field == "profile" && error.message.contains("car"), "\(error.message)")
        }
        #expect(detectorSwitch.current() == ("walking", "standard"), "refusing changes nothing")
    }

    @Test func aSavedChoiceThatNoLongerRunsGivesWayToTheFilesAndSaysSo() throws {
        let hub = EventHub(logger: .init(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let file = (DetectionProfile.walking, "standard")
        let (kept, keptSensitivity, _) = try Daemon.startingDetector(
            try DetectorChoice(profile: "motorcycling", sensitivity: "high"), otherwise: file, make: Self.make, hub: hub, at: 0)
        #expect(kept.name == "motorcycling" && keptSensitivity == "high")
        #expect(hub.recentEvents.isEmpty)

        let (fallback, sensitivity, _) = try Daemon.startingDetector(
            try DetectorChoice(profile: "cycling", sensitivity: "high"), otherwise: file, make: Self.make, hub: hub, at: 0)
        #expect(fallback.name == "walking" && sensitivity == "standard")
        let error = try #require(hub.recentEvents.last)
        #expect(error.type == "error" && error.severity == .error)
        #expect(error.logLine.contains("cycling") && error.logLine.contains("walking"), "\(error.logLine)")

        let (none, _, _) = try Daemon.startingDetector(nil, otherwise: file, make: Self.make, hub: hub, at: 0)
        #expect(none.name == "walking")
    }
}
