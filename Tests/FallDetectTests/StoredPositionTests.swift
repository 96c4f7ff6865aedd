import Testing
@testable import FallDetect

/// Which position the store keeps when a poor fix follows a good one.
@Suite struct StoredPositionTests {
    let s: Int64 = 1_000_000_000

    func position(accuracy: Double?, at t: Int64, boot: String? = BootIdentity.current) -> StoredPosition {
        StoredPosition(latitude: 38.7, longitude: -9.1, accuracy: accuracy, recordedAt: t, boot: boot)
    }

    /// Indoors the receiver drops to fixes hundreds of metres off: for two minutes the good one
    /// stands; then, or against a fix of unknown error, or one as good, the newer one is taken.
    @Test func aGoodPositionOutweighsPoorFixesForTwoMinutes() {
        let good = position(accuracy: 8, at: 100 * s)
        #expect(good.outweighs(position(accuracy: 900, at: 0), at: 101 * s))
        #expect(good.outweighs(position(accuracy: 900, at: 0), at: 219 * s))
        #expect(!good.outweighs(position(accuracy: 900, at: 0), at: 220 * s), "two minutes on, the poor fix is all there is")
        #expect(!good.outweighs(position(accuracy: 60, at: 0), at: 101 * s), "not a poor fix")
        #expect(!good.outweighs(position(accuracy: nil, at: 0), at: 101 * s), "an unknown error is not judged poor")
        #expect(!position(accuracy: 300, at: 100 * s).outweighs(position(accuracy: 900, at: 0), at: 101 * s), "a poor one outweighs nothing")
        #expect(!position(accuracy: 8, at: 100 * s, boot: "another boot").outweighs(position(accuracy: 900, at: 0), at: 101 * s),
                "a time from another boot's clock says nothing of its age")
    }
}
