/// Softened copies of the development falls that the learned detector also trains on
/// (`detectord train`, `detectord bench --train`).
///
/// SisFall's young volunteers fall hard onto a mat, and a model fitted on their falls alone
/// learns that a fall needs a hard impact and a deep weightless dip. Older people fall more
/// slowly and hit more softly, and the development split cannot show them falling. A copy of each
/// fall with its departure from 1 g scaled down (`FallSoftening`) keeps the body's turn and the
/// posture after it, so the model learns to weigh those too. That costs false alarms at the
/// detector; the stages after it (stillness, recovery) take them back.
public struct FallAugmentation: Sendable, Hashable {
    /// `FallSoftening` scales of the copies, each in (0, 1); empty trains on the recorded falls only.
    public let scales: [Float]

    /// What the shipped model is trained with: one copy at half the departure from 1 g.
    public static let shippedScales: [Float] = [0.5]

    /// Throws `.invalidArgument` naming `augment` when a scale is outside (0, 1).
    public init(scales: [Float] = FallAugmentation.shippedScales) throws(FallDetectError) {
        for scale in scales {
            try FallDetectError.require(scale.isFinite && scale > 0 && scale < 1, "augment", "scales must lie in (0, 1), got \(scale)")
        }
        self.scales = scales
    }

    /// The softened copies of `dataset`'s fall trials, scanned as `OnlineScan` scans the
    /// recorded ones (same decimation), one set per scale.
    public func trials(of dataset: SisFallDataset, decimation: Int = 1, cache: TrialCache? = nil) throws(FallDetectError) -> [OnlineTrial] {
        var copies: [OnlineTrial] = []
        for scale in scales {
            let scan = try OnlineScan(
                dataset: dataset, decimation: decimation, softening: FallSoftening(scale: scale), fallsOnly: true, cache: cache)
            copies += scan.trials
        }
        return copies
    }
}
