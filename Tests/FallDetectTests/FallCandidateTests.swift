import Foundation
import Testing

@testable import FallDetect

/// The candidate's derived views: the feature vector (`FallFeatureVector`), evidence and phases.
@Suite struct FallCandidateTests {
    static let c = FallCandidate(
        peakAcceleration: 4.2, saturated: true, minimumAccelerationBefore: 0.31, lowAccelerationSeconds: 0.27, tiltBefore: 7.5,
        tiltAfter: 81.25, maximumTiltAfter: 87, tiltAtDecision: 84, minimumVerticalVelocity: -1.9, peakAngularRate: 210,
        motionAfter: 0.06, activityBefore: 0.11, attitudeChange: 76, peakAngularRateAfter: 59, fallingStartNanoseconds: 1_100,
        impactNanoseconds: 1_500, decisionNanoseconds: 2_100)

    @Test func featuresFollowTheirNames() {
        let v = Self.c.features
        #expect(FallCandidate.featureNames.count == 14)
        let expected: [Float] = [
            log(4.2), 0.31, 7.5, 81.25, 73.75, log(211), 0.06, -1.9, 0.11, 84, 87, 0.27, 76, log(60),
        ]
        for i in 0..<14 {
            #expect(abs(v[i] - expected[i]) < 1e-5, "\(FallCandidate.featureNames[i]): \(v[i]) vs \(expected[i])")
        }
        for i in 14..<FallFeatureVector.scalarCount { #expect(v[i] == 0) }
    }

    @Test func logFeaturesStayFiniteAtZero() {
        var z = Self.c
        z.peakAcceleration = 0
        z.peakAngularRate = 0
        #expect(z.features[0] == log(Float(1e-3)))
        #expect(z.features[5] == 0)
    }

    @Test func tiltChangeIsAfterMinusBefore() {
        var x = Self.c
        x.tiltBefore = 80
        x.tiltAfter = 20
        #expect(x.tiltChange == -60)
    }

    @Test func evidenceCarriesTheMeasurements() {
        let e = Self.c.evidence
        #expect(e.peakAcceleration == 4.2)
        #expect(e.saturated)
        #expect(e.minimumAcceleration == 0.31)
        #expect(e.freeFallSeconds == 0.27)
        #expect(e.verticalVelocity == -1.9)
        #expect(e.peakAngularRate == 210)
        #expect(e.tiltDegrees == 81.25)
        let change: Float = 81.25 - 7.5
        #expect(e.tiltChangeDegrees == change)
        #expect(e.stillSeconds == nil && e.speedBefore == nil)
    }

    @Test func phasesAreFallingImpactPostureChangeAtTheirTimes() {
        let p = Self.c.phases
        #expect(p.map(\.name) == [.falling, .impact, .postureChange])
        #expect(p.map(\.timestampNanoseconds) == [1_100, 1_500, 2_100])
    }
}
