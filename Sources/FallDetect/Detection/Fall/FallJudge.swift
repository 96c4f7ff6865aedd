/// Decides whether a `FallCandidate` is a fall. A score on the judge's own scale; the detector
/// fires when it reaches `threshold`. Sweeping the threshold gives the judge's ROC curve.
public protocol FallJudge: Sendable {
    /// Short name used in tables, JSON and events: "multiphase", "learned".
    var name: String { get }
    /// The operating point: scores at or above it are falls.
    var threshold: Float { get set }
    func score(_ candidate: FallCandidate) -> Float
    /// 0…1 for the event, from how far `score` lies past `threshold`.
    func confidence(score: Float) -> Float
}
