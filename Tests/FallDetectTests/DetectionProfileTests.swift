import Testing

@testable import FallDetect

@Suite struct DetectionProfileTests {
    @Test func profilesAreFoundByName() {
        for profile in DetectionProfile.all {
            #expect(DetectionProfile.named(profile.name) == profile)
            #expect(DetectionProfile.named(profile.name.uppercased()) == profile)
        }
        #expect(DetectionProfile.named("skiing") == nil)
        #expect(Set(DetectionProfile.all.map(\.name)).count == DetectionProfile.all.count)
    }

    @Test func higherSensitivityLowersEveryThreshold() throws {
        let low = DetectionProfile.cycling.with(sensitivity: .low)
        let standard = DetectionProfile.cycling.with(sensitivity: .standard)
        let high = DetectionProfile.cycling.with(sensitivity: .high)
        #expect(high.learnedThreshold < standard.learnedThreshold && standard.learnedThreshold < low.learnedThreshold)
        #expect(high.multiphase.minimumImpact < standard.multiphase.minimumImpact && standard.multiphase.minimumImpact < low.multiphase.minimumImpact)
        let crash = try #require(standard.crash?.impactThreshold)
        #expect(try #require(high.crash?.impactThreshold) < crash && crash < (try #require(low.crash?.impactThreshold)))
        #expect(try #require(high.freeFall?.minimumSeconds) < (try #require(standard.freeFall?.minimumSeconds)))
        #expect(high.sensitivity == .high)
        // Presets are relative to where the profile stands, not cumulative.
        let back = DetectionProfile.cycling.with(sensitivity: .high).with(sensitivity: .standard)
        #expect(back.learnedThreshold == standard.learnedThreshold)
        #expect(abs(back.multiphase.minimumImpact - standard.multiphase.minimumImpact) < 1e-5)
        #expect(abs((back.crash?.impactThreshold ?? 0) - crash) < 1e-5)
        #expect(abs((back.freeFall?.minimumSeconds ?? 0) - (standard.freeFall?.minimumSeconds ?? 1)) < 1e-6)
        #expect(standard == .cycling)
        // Every preset still builds a pipeline.
        for preset in DetectionSensitivity.allCases {
            for profile in DetectionProfile.all { _ = try DetectionPipeline(profile: profile.with(sensitivity: preset), sampleRate: 200) }
        }
    }
}
