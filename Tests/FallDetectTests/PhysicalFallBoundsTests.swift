import FallDetect
import Testing

@Suite struct PhysicalFallBoundsTests {
    /// A candidate as HAPT's stand-to-lie and phone removals measure: a soft landing after a slow
    /// descent, the trunk turned to lying.
    static func lyingDown(peak: Float = 1.8, velocity: Float = -0.4, saturated: Bool = false, attitude: Float = 80, tiltAfter: Float = 85) -> FallCandidate {
        FallCandidate(
            peakAcceleration: peak, saturated: saturated, minimumAccelerationBefore: 0.5, lowAccelerationSeconds: 0, tiltBefore: 15,
            tiltAfter: tiltAfter, maximumTiltAfter: tiltAfter + 5, tiltAtDecision: tiltAfter, minimumVerticalVelocity: velocity, peakAngularRate: 350,
            motionAfter: 0.1, activityBefore: 0.06, attitudeChange: attitude, peakAngularRateAfter: 300, minimumTiltBefore: 10,
            fallingStartNanoseconds: 0, impactNanoseconds: 1_500_000_000, decisionNanoseconds: 2_100_000_000)
    }

    @Test func slowSoftLoweringIsNoFall() {
        #expect(PhysicalFallBounds.standard.violation(Self.lyingDown()) == .controlledLowering)
    }

    @Test func aFastDescentOrAHardImpactMayBeAFall() {
        let bounds = PhysicalFallBounds.standard
        #expect(bounds.admits(Self.lyingDown(velocity: -1.2)))
        #expect(bounds.admits(Self.lyingDown(peak: 2.5)))
        // A clipped impact read low by a ±2 g part is still an impact.
        #expect(bounds.admits(Self.lyingDown(peak: 2.0, saturated: true)))
    }

    @Test func aMovementThatEndsAsItBeganIsNoFall() {
        let upright = Self.lyingDown(peak: 4, velocity: -1.5, attitude: 10, tiltAfter: 20)
        #expect(PhysicalFallBounds.standard.violation(upright) == .unchangedPosture)
        #expect(PhysicalFallBounds.standard.admits(Self.lyingDown(peak: 4, velocity: -1.5, attitude: 10, tiltAfter: 70)))
    }

    @Test func offAdmitsEverything() {
        #expect(PhysicalFallBounds.off.admits(Self.lyingDown()))
    }

    @Test func validationNamesTheField() {
        var bounds = PhysicalFallBounds()
        bounds.controlledDescentVelocity = 0.5
        #expect(throws: FallDetectError.self) { try bounds.validate() }
        do { try bounds.validate() } catch { #expect(error.field == "controlledDescentVelocity") }
    }

    /// The shipped model alone calls this lie-down a fall; the bounds overrule it.
    @Test func noModelOutputTurnsALieDownIntoAFall() throws {
        var judge = try LearnedFallJudge.shipped()
        judge.bounds = .off
        let candidate = Self.lyingDown(peak: 1.66, velocity: -0.41)
        #expect(judge.score(candidate) >= judge.threshold)
        judge.bounds = .standard
        #expect(judge.score(candidate) == 0)
    }
}
