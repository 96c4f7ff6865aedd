import FallDetect
import Logging
import Synchronization
import Testing
@testable import detectord

/// A profile chosen on the page is built before it is saved, and a saved one that no longer runs
/// gives way at start; `make` stands in for a sensor on which the cycling profile cannot run.
@Suite struct DetectorSwitchTests {
    struct CannotRun: Error {}

    static let make: @Sendable (DetectionProfile, Double) throws -> DetectionPipeline = { profile, rate in
        if profile.name == "cycling" { throw FallDetectError(.invalidArgument, "a 5 Hz low-pass needs a sample rate above twice that", field: "sampleRate") }
        if profile.name == "car" { throw CannotRun() }
        return try DetectionPipeline(profile: profile, sampleRate: Float(rate))
    }

    static func walking(make: @escaping @Sendable (DetectionProfile, Double) throws -> DetectionPipeline = make) -> DetectorSwitch {
        DetectorSwitch(profile: .walking, sensitivity: "standard", rateHz: 100, make: make)
    }

    @Test func aProfileThatCannotRunIsRefusedNamingWhy() throws {
        let detectorSwitch = Self.walking()
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
            try DetectorChoice(profile: "motorcycling", sensitivity: "high"), otherwise: file, make: { try Self.make($0, 100) }, hub: hub, at: 0)
        #expect(kept.name == "motorcycling" && keptSensitivity == "high")
        #expect(hub.recentEvents.isEmpty)

        let (fallback, sensitivity, _) = try Daemon.startingDetector(
            try DetectorChoice(profile: "cycling", sensitivity: "high"), otherwise: file, make: { try Self.make($0, 100) }, hub: hub, at: 0)
        #expect(fallback.name == "walking" && sensitivity == "standard")
        let error = try #require(hub.recentEvents.last)
        #expect(error.type == "error" && error.severity == .error)
        #expect(error.logLine.contains("cycling") && error.logLine.contains("walking"), "\(error.logLine)")

        let (none, _, _) = try Daemon.startingDetector(nil, otherwise: file, make: { try Self.make($0, 100) }, hub: hub, at: 0)
        #expect(none.name == "walking")
    }

    /// The chip runs at another rate than the one asked for: the running profile is built again
    /// for it, unless it is within 0.5 %; a rate the profile cannot run at keeps the old pipeline.
    @Test func theDetectorFollowsTheRateTheChipRunsAt() throws {
        final class Built: Sendable { let rates = Mutex<[Double]>([]) }
        let built = Built()
        let detectorSwitch = Self.walking { profile, rate in
            built.rates.withLock { $0.append(rate) }
            if rate > 5000 { throw FallDetectError(.invalidArgument, "too fast", field: "sampleRate") }
            return try Self.make(profile, rate)
        }
        try detectorSwitch.follow(rateHz: 104)
        #expect(detectorSwitch.rateHz == 104 && built.rates.withLock { $0 } == [104])
        try detectorSwitch.follow(rateHz: 104.4)
        #expect(detectorSwitch.rateHz == 104 && built.rates.withLock { $0 } == [104], "within 0.5 %: nothing rebuilt")
        #expect(throws: FallDetectError.self) { try detectorSwitch.follow(rateHz: 6664) }
        #expect(detectorSwitch.rateHz == 104, "the running pipeline stays")
        _ = try detectorSwitch.prepare(try DetectorChoice(profile: "motorcycling", sensitivity: "standard"))
        #expect(built.rates.withLock { $0 }.last == 104, "a profile chosen later is built for the chip's rate")
    }
}
