import Foundation
import Testing

/// Runs the Python reference scripts in Tests/oracle with the oracle virtual environment
/// (Bench/.venv-oracle: imufusion, numpy, scipy; created by `make test`'s bootstrap) and reads
/// their binary outputs.
enum Oracle {
    static var python: String { "\(SharedData.packageRoot)/Bench/.venv-oracle/bin/python" }

    /// Runs `Tests/oracle/<script>` with `--out <fresh temp dir>` and `arguments`; returns the
    /// folder, or nil when the venv is missing (a failure under CI=true, SKIPPED otherwise).
    static func run(
        _ script: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("oracle venv missing at \(python); `make test` creates it", sourceLocation: sourceLocation)
            } else {
                print("SKIPPED: oracle venv missing at \(python) (make test creates it)")
            }
            return nil
        }
        let out = try SharedData.temporaryDirectory("oracle")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["\(SharedData.packageRoot)/Tests/oracle/\(script)", "--out", out] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Issue.record("\(script) failed (\(process.terminationStatus)): \(text)", sourceLocation: sourceLocation)
            return nil
        }
        return out
    }

    static func read<T>(_ path: String, as: T.Type) throws -> [T] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: T.self)) }
    }

    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
