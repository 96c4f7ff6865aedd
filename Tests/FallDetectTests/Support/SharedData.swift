import FallDetect
import Foundation
import Testing

/// Finds the shared, third-party datasets beside the project (`../shared`, never copied into it)
/// and unpacks them into the git-ignored `<package>/.cache/datasets` on first use.
enum SharedData {
    /// The package root: the nearest folder above this file that holds Package.swift.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            url = url.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// `../shared/datasets` relative to the package root.
    static var datasetsDirectory: String {
        URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/datasets").path
    }

    static var sisFallArchive: String { "\(datasetsDirectory)/sisfall-dev.tar.xz" }
    static var sisFallManifest: String { "\(datasetsDirectory)/sisfall-dev.MANIFEST.sha256" }

    /// The unpacked SisFall development split (`…/.cache/datasets/sisfall`), or nil when the
    /// shared data is absent: then a test failure under CI=true, a plain SKIPPED line otherwise.
    static func sisFallRoot(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard FileManager.default.fileExists(atPath: sisFallArchive) else {
            missing("../shared/datasets not found (looked for \(sisFallArchive))", sourceLocation: sourceLocation)
            return nil
        }
        do {
            let archive = DatasetArchive(archivePath: sisFallArchive, destination: "\(packageRoot)/.cache/datasets")
            return try archive.unpack() + "/sisfall"
        } catch {
            Issue.record("cannot unpack \(sisFallArchive): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static var haptArchive: String { "\(datasetsDirectory)/hapt-dev.tar.xz" }

    /// The unpacked HAPT development recordings (`…/.cache/datasets/hapt`), or nil as for SisFall.
    static func haptRoot(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard FileManager.default.fileExists(atPath: haptArchive) else {
            missing("../shared/datasets not found (looked for \(haptArchive))", sourceLocation: sourceLocation)
            return nil
        }
        do {
            let archive = DatasetArchive(archivePath: haptArchive, destination: "\(packageRoot)/.cache/datasets")
            return try archive.unpack() + "/hapt"
        } catch {
            Issue.record("cannot unpack \(haptArchive): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func missing(_ what: String, sourceLocation: SourceLocation) {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(what); CI needs ../shared beside the package", sourceLocation: sourceLocation)
        } else {
            print("SKIPPED: ../shared/datasets not found")
        }
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "fd-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
