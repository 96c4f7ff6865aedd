import FallDetect
import Foundation
import Testing

/// The shared, third-party datasets beside the package (`../shared/datasets`, never copied into
/// it), unpacked into the git-ignored `.cache/datasets` on first use.
enum SharedDatasets {
    /// The unpacked `folder` of `../shared/datasets/<archive>`, or nil: a failure under CI=true,
    /// a SKIPPED line otherwise.
    static func unpacked(_ archive: String, _ folder: String) throws -> String? {
        let package = DetectordProcess.packageRoot
        let path = package.deletingLastPathComponent().appendingPathComponent("shared/datasets/\(archive)").path
        guard FileManager.default.fileExists(atPath: path) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("\(path) not found; CI needs ../shared beside the package")
            } else {
                print("SKIPPED: ../shared/datasets not found")
            }
            return nil
        }
        return try DatasetArchive(archivePath: path, destination: package.appendingPathComponent(".cache/datasets").path).unpack() + "/\(folder)"
    }
}
