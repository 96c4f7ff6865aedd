import Foundation
import Testing

@testable import FallDetect

@Suite struct LearnedFallJudgeTests {
    /// What a fall from standing looks like to the tracker: weightless, a hard impact, lying after.
    static let clearFall = FallCandidate(
        peakAcceleration: 5.5, saturated: false, minimumAccelerationBefore: 0.15, lowAccelerationSeconds: 0.35, tiltBefore: 6,
        tiltAfter: 86, maximumTiltAfter: 89, tiltAtDecision: 87, minimumVerticalVelocity: -2.5, peakAngularRate: 280,
        motionAfter: 0.04, activityBefore: 0.05, attitudeChange: 80, peakAngularRateAfter: 40,
        fallingStartNanoseconds: 10_000_000_000, impactNanoseconds: 10_400_000_000,
        decisionNanoseconds: 11_000_000_000)
    /// Sitting down hard: a modest bump, never weightless, leaning a little, upright after.
    static let clearNonFall = FallCandidate(
        peakAcceleration: 1.7, saturated: false, minimumAccelerationBefore: 0.8, lowAccelerationSeconds: 0, tiltBefore: 8,
        tiltAfter: 18, maximumTiltAfter: 24, tiltAtDecision: 17, minimumVerticalVelocity: -0.4, peakAngularRate: 45,
        motionAfter: 0.03, activityBefore: 0.15, attitudeChange: 10, peakAngularRateAfter: 20,
        fallingStartNanoseconds: 10_400_000_000, impactNanoseconds: 10_400_000_000,
        decisionNanoseconds: 11_000_000_000)

    @Test func shippedModelParsesAtItsThreshold() throws {
        let judge = try LearnedFallJudge.shipped()
        #expect(judge.name == "learned")
        #expect(judge.threshold == (try FallModelFile.shipped()).threshold)
        #expect(judge.model.featureCount == FallCandidate.featureNames.count)
        #expect(judge.model.roots.count > 1)
    }

    @Test func shippedModelScoresAClearFallAboveAClearNonFall() throws {
        let judge = try LearnedFallJudge.shipped()
        let fall = judge.score(Self.clearFall), other = judge.score(Self.clearNonFall)
        #expect(fall > other, "fall \(fall), non-fall \(other)")
        #expect(fall >= judge.threshold, "fall \(fall)")
        #expect(other < judge.threshold, "non-fall \(other)")
        #expect(judge.score(Self.clearFall) == judge.model.probability(Self.clearFall.features))
    }

    /// A one-split model on feature 4 (tilt change): the judge must hand the model the candidate's
    /// features in `featureNames` order.
    @Test func scoreIsTheModelsProbabilityOfTheCandidatesFeatures() throws {
        let model = BoostedTrees(
            featureCount: 12, bias: 0.5,
            nodes: [BoostedTrees.Node(feature: 4, threshold: 30, left: 1, right: 2, value: 0), .leaf(-2), .leaf(2)], roots: [0])
        let judge = try LearnedFallJudge(model: model, threshold: 0.5)
        var c = Self.clearFall
        c.tiltBefore = 50
        c.tiltAfter = 80.5  // change 30.5: right
        #expect(abs(judge.score(c) - 1 / (1 + exp(-2.5))) < 1e-6)
        c.tiltAfter = 79.5  // change 29.5: left
        #expect(abs(judge.score(c) - 1 / (1 + exp(1.5))) < 1e-6)
    }

    @Test func rejectsAModelReadingMoreFeaturesThanCandidatesHave() {
        let model = BoostedTrees(featureCount: FallCandidate.featureNames.count + 1, bias: 0, nodes: [.leaf(0)], roots: [0])
        do {
            _ = try LearnedFallJudge(model: model, threshold: 0.5)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == "features")
        }
    }

    @Test(arguments: [Float(0), 1, -0.1, .nan, .infinity])
    func rejectsAThresholdOutsideZeroToOne(_ threshold: Float) {
        let model = BoostedTrees(featureCount: 1, bias: 0, nodes: [.leaf(0)], roots: [0])
        do {
            _ = try LearnedFallJudge(model: model, threshold: threshold)
            Issue.record("threshold \(threshold) accepted")
        } catch {
            #expect(error.field == "threshold")
        }
    }

    @Test(arguments: [Float(0.5), 0.2, 0.9])
    func confidenceMapsTheThresholdToOneHalfAndCertaintyToOne(_ threshold: Float) throws {
        let judge = try LearnedFallJudge(model: BoostedTrees(featureCount: 1, bias: 0, nodes: [.leaf(0)], roots: [0]), threshold: threshold)
        #expect(judge.confidence(score: threshold.nextDown) == 0)
        #expect(judge.confidence(score: 0) == 0)
        #expect(judge.confidence(score: threshold) == 0.5)
        #expect(abs(judge.confidence(score: 1) - 1) < 1e-6)
        var previous: Float = 0.5
        for k in 1...20 {
            let score = threshold + (1 - threshold) * Float(k) / 20
            let c = judge.confidence(score: score)
            #expect(c > 0.5 && c <= 1 + 1e-6, "score \(score): \(c)")
            #expect(c > previous)
            previous = c
        }
        // Halfway between the threshold and 1 is 0.75.
        #expect(abs(judge.confidence(score: (threshold + 1) / 2) - 0.75) < 1e-5)
    }
}
