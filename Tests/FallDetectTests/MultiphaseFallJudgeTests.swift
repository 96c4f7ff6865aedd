import Testing

@testable import FallDetect

/// Each rule of the multiphase judge on paired candidates: the same candidate just inside and
/// just outside the rule, everything else comfortably passing.
@Suite struct MultiphaseFallJudgeTests {
    static let parameters = MultiphaseFallParameters(maximumFallingAcceleration: 0.7, minimumImpact: 2.5, lyingTilt: 65, minimumTiltChange: 30)

    /// Passes every rule with room to spare.
    static func fall() -> FallCandidate {
        FallCandidate(
            peakAcceleration: 5, saturated: false, minimumAccelerationBefore: 0.2, lowAccelerationSeconds: 0.3, tiltBefore: 8,
            tiltAfter: 84, maximumTiltAfter: 88, tiltAtDecision: 85, minimumVerticalVelocity: -2, peakAngularRate: 300,
            motionAfter: 0.05, activityBefore: 0.1, fallingStartNanoseconds: 1_000, impactNanoseconds: 2_000,
            decisionNanoseconds: 3_000)
    }

    static func passes(_ c: FallCandidate) throws -> Bool {
        let judge = try MultiphaseFallJudge(parameters: parameters)
        return judge.score(c) >= judge.threshold
    }

    @Test func theReferenceCandidatePassesAndScoresItsImpact() throws {
        let judge = try MultiphaseFallJudge(parameters: Self.parameters)
        #expect(judge.score(Self.fall()) == Self.fall().peakAcceleration)
        #expect(try Self.passes(Self.fall()))
        #expect(judge.name == "multiphase")
    }

    @Test func fallingRule() throws {
        var inside = Self.fall(), outside = Self.fall()
        inside.minimumAccelerationBefore = Self.parameters.maximumFallingAcceleration
        outside.minimumAccelerationBefore = Self.parameters.maximumFallingAcceleration.nextUp
        #expect(try Self.passes(inside))
        #expect(try !Self.passes(outside))
        #expect(try MultiphaseFallJudge(parameters: Self.parameters).score(outside) == 0)
    }

    @Test func impactRule() throws {
        var inside = Self.fall(), outside = Self.fall()
        inside.peakAcceleration = Self.parameters.minimumImpact
        outside.peakAcceleration = Self.parameters.minimumImpact.nextDown
        #expect(try Self.passes(inside))
        #expect(try !Self.passes(outside))
    }

    @Test func lyingRuleReadsTheLargestTiltAfter() throws {
        var inside = Self.fall(), outside = Self.fall()
        inside.maximumTiltAfter = Self.parameters.lyingTilt
        outside.maximumTiltAfter = Self.parameters.lyingTilt.nextDown
        #expect(try Self.passes(inside))
        #expect(try !Self.passes(outside))
        // The mean tilt after and the tilt at the decision do not enter this rule.
        var lowMean = Self.fall()
        lowMean.tiltAtDecision = 10
        #expect(try Self.passes(lowMean))
    }

    @Test func postureChangeRule() throws {
        var inside = Self.fall(), outside = Self.fall()
        // Lying before already: the change is what fails, not the lying posture.
        inside.tiltBefore = inside.tiltAfter - Self.parameters.minimumTiltChange
        outside.tiltBefore = inside.tiltBefore + 0.5
        #expect(inside.tiltChange >= Self.parameters.minimumTiltChange)
        #expect(outside.tiltChange < Self.parameters.minimumTiltChange)
        #expect(try Self.passes(inside))
        #expect(try !Self.passes(outside))
    }

    @Test func saturationDoesNotChangeTheScore() throws {
        let judge = try MultiphaseFallJudge(parameters: Self.parameters)
        var clipped = Self.fall()
        clipped.saturated = true
        #expect(judge.score(clipped) == judge.score(Self.fall()))
    }

    @Test func thresholdIsTheMinimumImpact() throws {
        var judge = try MultiphaseFallJudge(parameters: Self.parameters)
        #expect(judge.threshold == Self.parameters.minimumImpact)
        judge.threshold = 6
        #expect(judge.parameters.minimumImpact == 6)
        #expect(judge.score(Self.fall()) < judge.threshold)  // peak 5 g
    }

    @Test func confidenceIsZeroBelowThresholdAndInHalfToOneAbove() throws {
        let judge = try MultiphaseFallJudge(parameters: Self.parameters)
        let t = judge.threshold
        #expect(judge.confidence(score: 0) == 0)
        #expect(judge.confidence(score: t.nextDown) == 0)
        #expect(judge.confidence(score: t) == 0.5)
        var previous: Float = 0.5
        for k in 1...40 {
            let score = t * (1 + Float(k) * 0.05)  // up to 3× the threshold
            let c = judge.confidence(score: score)
            #expect(c > 0.5 && c <= 1, "score \(score): \(c)")
            #expect(c >= previous)
            previous = c
            // Half from passing, half from the margin: 1 at twice the threshold and beyond.
            #expect(abs(c - min(1, 0.5 + 0.5 * (score / t - 1))) < 1e-6)
        }
        #expect(judge.confidence(score: 2 * t) == 1)
        #expect(abs(judge.confidence(score: 1.5 * t) - 0.75) < 1e-6)
    }
}
