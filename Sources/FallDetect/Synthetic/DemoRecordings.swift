#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The synthetic demo set in Datasets/demo/: one `.detrec` file per `SyntheticScenario`, made
/// with a fixed seed so regenerating gives the same bytes (`detectord synth Datasets/demo`).
public enum DemoRecordings {
    /// The seed of the committed demo files.
    public static let seed: UInt64 = 20_251_122

    /// Writes every scenario into `directory` (created if missing) and returns the file paths in
    /// `SyntheticScenario.allCases` order. Each file is written under a temporary name and then
    /// renamed, so an interrupted run never leaves a half-written demo file behind.
    @discardableResult
    public static func write(to directory: String, seed: UInt64 = DemoRecordings.seed) throws(FallDetectError) -> [String] {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw FallDetectError.io("cannot create the demo directory", path: directory, errno: errno)
        }
        let generator = SyntheticGenerator(seed: seed)
        var paths: [String] = []
        for scenario in SyntheticScenario.allCases {
            let path = directory.hasSuffix("/") ? directory + scenario.fileName : directory + "/" + scenario.fileName
            let temporary = path + ".tmp"
            do {
                try RecordingWriter.write(generator.generate(scenario), to: temporary)
            } catch {
                unlink(temporary)
                throw error
            }
            if rename(temporary, path) != 0 {
                let code = errno
                unlink(temporary)
                throw FallDetectError.io("cannot move the demo file into place", path: path, errno: code)
            }
            paths.append(path)
        }
        return paths
    }
}
