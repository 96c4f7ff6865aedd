import FallDetect
import Foundation

/// The inputs under `Fuzz/`: `corpus/TARGET` holds the seeds, `crashes/TARGET` every input that
/// once crashed, hung or violated a target, kept as a regression test.
enum FuzzCorpus {
    enum Kind: String, CaseIterable, Sendable {
        case corpus, crashes
    }

    /// The files under each path (folders one level deep, in name order); a missing path is an error.
    static func files(in paths: [String]) throws(FallDetectError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw FallDetectError(.io, "no such file or folder", path: path)
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        return files
    }

    static func bytes(_ path: String) throws(FallDetectError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FallDetectError(.io, "cannot read the input", path: path)
        }
        return [UInt8](data)
    }
}
