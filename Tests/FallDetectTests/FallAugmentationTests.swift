import Foundation
import Testing

@testable import FallDetect

/// The softened copies of the falls that the learned detector also trains on.
@Suite struct FallAugmentationTests {
    @Test(arguments: [Float(0), 1, -0.5, 1.5, .nan])
    func aScaleOutsideZeroToOneIsNamed(_ scale: Float) {
        let error = #expect(throws: FallDetectError.self) { try FallAugmentation(scales: [0.5, scale]) }
        #expect(error?.field == "augment")
    }

    /// The default is what the committed model was trained with: changing one without retraining
    /// the other fails here (`detectord train` writes the scales into the model file's header).
    @Test func theShippedScalesAreTheCommittedModelsAndNoneIsAccepted() throws {
        let scales = try FallAugmentation().scales
        #expect(scales == FallAugmentation.shippedScales && !scales.isEmpty)
        let committed = try FallModelFile.load(path: SharedData.packageRoot + "/Sources/FallDetect/Resources/fall-model.txt")
        #expect(committed.augmentation.scales == scales)
        #expect(try FallAugmentation(scales: []).scales.isEmpty)
    }

    /// One subject of the development split: a copy of every labelled fall per scale, and nothing
    /// of its activities; the hardest impact of nearly every copy is softer than the recorded fall's.
    @Test func copiesAreTheSubjectsFallsSoftened() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dir = try SharedData.temporaryDirectory("augment")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for folder in ["SisFall_dataset", "SisFall_enhanced"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/\(folder)", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/\(folder)/SA03", withDestinationPath: "\(root)/\(folder)/SA03")
        }
        let dataset = try SisFallDataset(root: dir)
        let recorded = try OnlineScan(dataset: dataset).trials.filter(\.name.isFall)
        #expect(recorded.count == 75)
        let copies = try FallAugmentation(scales: [0.5, 0.8]).trials(of: dataset)
        #expect(copies.map(\.name) == recorded.map(\.name) + recorded.map(\.name))
        func hardest(_ t: OnlineTrial) -> Float { t.candidates.map(\.peakAcceleration).max() ?? 1 }
        let half = copies.prefix(recorded.count)
        // Where the hardest impact is the fall's (not getting up afterwards), it is softer.
        let softer = zip(half, recorded).filter { hardest($0) < hardest($1) }.count
        let softerThanEight = zip(half, copies.suffix(recorded.count)).filter { hardest($0) < hardest($1) }.count
        #expect(softer >= 70 && softerThanEight >= 70, "\(softer), \(softerThanEight) of \(recorded.count)")
        #expect(try FallAugmentation(scales: []).trials(of: dataset).isEmpty)
    }
}
