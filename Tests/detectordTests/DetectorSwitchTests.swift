import FallDetect
import Logging
import Synchronization
import Testing
@testable import detectord

/// A profile chosen on the page is built before it is saved, and a saved one that no longer runs
/// gives way at start; `make` stands in for a sensor on which the cycling profile cannot run.
@Suite struct DetectorSwitchTests {
    struct CannotRun: Error {}

    static let make: @Sendable (DetectionProfile, SensorScale) throws -> DetectionPipeline = { profile, scale in
        if profile.name == "cycling" { throw FallDetectError(.invalidArgument, "a 5 Hz low-pass needs a sample rate above twice that", field: "sampleRate") }
        if profile.name == "car" { throw CannotRun() }
        return try DetectionPipeline(profile: profile, sampleRate: Float(scale.rateHz))
    }

    static func scale(_ rateHz: Double, gyroscope: Float = 2000) -> SensorScale {
        SensorScale(rateHz: rateHz, accelerometerRange: 16, gyroscopeRange: gyroscope)
    }

    static func walking(make: @escaping @Sendable (DetectionProfile, SensorScale) throws -> DetectionPipeline = make) -> DetectorSwitch {
        DetectorSwitch(profile: .walking, sensitivity: "standard", scale: scale(100), make: make)
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
            try DetectorChoice(profile: "motorcycling", sensitivity: "high"), otherwise: file, make: { try Self.make($0, Self.scale(100)) }, hub: hub, at: 0)
        #expect(kept.name == "motorcycling" && keptSensitivity == "high")
        #expect(hub.recentEvents.isEmpty)

        let (fallback, sensitivity, _) = try Daemon.startingDetector(
            try DetectorChoice(profile: "cycling", sensitivity: "high"), otherwise: file, make: { try Self.make($0, Self.scale(100)) }, hub: hub, at: 0)
        #expect(fallback.name == "walking" && sensitivity == "standard")
        let error = try #require(hub.recentEvents.last)
        #expect(error.type == "error" && error.severity == .error)
        #expect(error.logLine.contains("cycling") && error.logLine.contains("walking"), "\(error.logLine)")

        let (none, _, _) = try Daemon.startingDetector(nil, otherwise: file, make: { try Self.make($0, Self.scale(100)) }, hub: hub, at: 0)
        #expect(none.name == "walking")
    }

    /// The chip runs at another rate or range than the one asked for: the running profile is
    /// built again for it, unless the rate is within 0.5 %; one the profile cannot run at keeps
    /// the old pipeline; a choice prepared before the change is built again when installed.
    @Test func theDetectorFollowsTheRateAndRangesTheChipRunsAt() throws {
        final class Built: Sendable { let scales = Mutex<[SensorScale]>([]) }
        let built = Built()
        let detectorSwitch = Self.walking { profile, scale in
            built.scales.withLock { $0.append(scale) }
            if scale.rateHz > 5000 { throw FallDetectError(.invalidArgument, "too fast", field: "sampleRate") }
            return try Self.make(profile, scale)
        }
        let rates = { built.scales.withLock { $0.map(\.rateHz) } }
        try detectorSwitch.follow(Self.scale(104))
        #expect(detectorSwitch.scale == Self.scale(104) && rates() == [104])
        try detectorSwitch.follow(Self.scale(104.4))
        #expect(detectorSwitch.scale.rateHz == 104 && rates() == [104], "within 0.5 %: nothing rebuilt")
        try detectorSwitch.follow(Self.scale(104, gyroscope: 500))
        #expect(detectorSwitch.scale.gyroscopeRange == 500 && rates() == [104, 104], "another range: rebuilt")
        #expect(throws: FallDetectError.self) { try detectorSwitch.follow(Self.scale(6664, gyroscope: 500)) }
        #expect(detectorSwitch.scale == Self.scale(104, gyroscope: 500), "the running pipeline stays")

        let choice = try DetectorChoice(profile: "motorcycling", sensitivity: "standard")
        let prepared = try detectorSwitch.prepare(choice)
        #expect(prepared.scale == Self.scale(104, gyroscope: 500), "a profile chosen later is built for the chip")
        try detectorSwitch.follow(Self.scale(208, gyroscope: 500))
        let before = rates().count
        try detectorSwitch.install(prepared, as: choice)
        #expect(rates().count == before + 1 && rates().last == 208, "the chip changed since it was prepared: built again")
        #expect(detectorSwitch.current() == ("motorcycling", "standard"))
    }
}
