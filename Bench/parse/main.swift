// parse-bench: SisFall text parsing throughput, a pass over the whole dataset from text vs from
// the TrialCache, and CSV reading (HAPT). Prints one JSON line per measurement.
//
//   parse-bench file <path> [--repeat N] [--kernel automatic|scalar|swar|vector]
//   parse-bench csv <folder of HAPT recordings/> [--repeat N]
//   parse-bench hapt <folder of HAPT recordings/> [--repeat N] [--workers N]
//   parse-bench dataset <root holding SisFall_dataset/> --cache <dir> [--workers N]
//   parse-bench unpack <archive.tar.xz> <destination>
import FallDetect
import Foundation
import Synchronization

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("parse-bench: \(message)\n".utf8))
    exit(2)
}

func option(_ name: String, in args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func json(_ fields: [(String, Any)]) -> String {
    "{" + fields.map { key, value in
        let v: String
        switch value {
        case let s as String: v = "\"\(s)\""
        case let d as Double: v = String(format: "%.6g", d)
        default: v = "\(value)"
        }
        return "\"\(key)\": \(v)"
    }.joined(separator: ", ") + "}"
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { fail("usage: parse-bench file|dataset|unpack …") }

switch mode {
case "file":
    guard args.count >= 2 else { fail("usage: parse-bench file <path> [--repeat N] [--kernel K]") }
    let path = args[1]
    let repeats = Int(option("--repeat", in: args) ?? "5") ?? 5
    let kernelName = option("--kernel", in: args) ?? "automatic"
    guard let kernel = SisFallParser.Kernel.allCases.first(where: { "\($0)" == kernelName }) else {
        fail("unknown kernel \(kernelName)")
    }
    let bytes: [UInt8]
    do { bytes = try SisFallParser.readFile(path) } catch { fail("\(error)") }
    // Two ways: a new output array per parse (what loading a trial does), and one reused
    // buffer (the parser alone, as the C code runs it).
    for reuse in [false, true] {
        var best = Double.infinity
        var rows = 0
        var buffer: [Int16] = []
        for _ in 0..<max(repeats, 1) {
            let start = now()
            do {
                if reuse {
                    rows = try bytes.withUnsafeBytes { try SisFallParser.parse($0, into: &buffer, path: path, kernel: kernel) }
                } else {
                    rows = try SisFallParser.parse(bytes, path: path, kernel: kernel).count / 9
                }
            } catch { fail("\(error)") }
            best = min(best, now() - start)
        }
        print(json([
            ("name", "detectord.SisFallParser"), ("case", "sisfall-20mb"), ("kernel", kernelName), ("output", reuse ? "reused" : "new"),
            ("bytes", bytes.count), ("rows", rows), ("repeat", repeats), ("best_s", best),
            ("mb_per_s", Double(bytes.count) / best / 1e6), ("rows_per_s", Double(rows) / best),
        ]))
    }

case "dataset":
    guard args.count >= 2, let cacheDirectory = option("--cache", in: args) else {
        fail("usage: parse-bench dataset <root> --cache <dir> [--workers N]")
    }
    let workers = option("--workers", in: args).flatMap(Int.init)
    let dataset: SisFallDataset
    do { dataset = try SisFallDataset(root: args[1]) } catch { fail("\(error)") }
    try? FileManager.default.removeItem(atPath: cacheDirectory)
    let cache: TrialCache
    do { cache = try TrialCache(directory: cacheDirectory) } catch { fail("\(error)") }
    let bytes = dataset.entries.reduce(0) { total, entry in
        total + ((try? FileManager.default.attributesOfItem(atPath: entry.rawPath)[.size] as? Int) ?? 0)
    }
    // Each pass hands every trial to a body that only counts samples, so memory stays flat.
    func pass(_ cache: TrialCache?) -> (seconds: Double, samples: Int) {
        let samples = Atomic<Int>(0)
        let start = now()
        _ = dataset.forEachTrial(cache: cache, workers: workers) { trial in
            samples.add(trial.samples.count, ordering: .relaxed)
        }
        return (now() - start, samples.load(ordering: .relaxed))
    }
    _ = pass(nil)  // warms the page cache, so that text and cache passes both read from memory
    let text = pass(nil)
    let fill = pass(cache)
    let cached = pass(cache)
    let threads = workers ?? ProcessInfo.processInfo.activeProcessorCount
    for (name, result) in [("text", text), ("text+cache-write", fill), ("cache", cached)] {
        print(json([
            ("name", "detectord.SisFallDataset.pass"), ("source", name), ("trials", dataset.entries.count),
            ("samples", result.samples), ("text_bytes", bytes), ("workers", threads), ("seconds", result.seconds),
            ("samples_per_s", Double(result.samples) / result.seconds),
        ]))
    }

case "csv":
    // Every .csv in the folder through CSVRecordingReader, as `replay` reads HAPT: file read, parse,
    // units and samples included. The best of N passes over all files, page cache warm.
    guard args.count >= 2 else { fail("usage: parse-bench csv <folder> [--repeat N]") }
    let repeats = Int(option("--repeat", in: args) ?? "5") ?? 5
    let folder = args[1]
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    guard !names.isEmpty else { fail("no .csv files in \(folder)") }
    let paths = names.map { "\(folder)/\($0)" }
    let bytes = paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
    var format: CSVFormat
    do { format = try CSVFormat(columns: "ax=acc-x,ay=acc-y,az=acc-z,gx=gyro-x,gy=gyro-y,gz=gyro-z") } catch { fail("\(error)") }
    format.sampleRate = 50
    format.angularRateUnit = .radiansPerSecond
    let reader = CSVRecordingReader(format: format)
    var best = Double.infinity
    var rows = 0
    for _ in 0..<max(repeats, 1) {
        let start = now()
        var count = 0
        for path in paths {
            do {
                let result = try reader.read(path: path)
                if let problem = result.problems.first { fail("\(problem)") }
                count += result.recording.samples.count
            } catch { fail("\(error)") }
        }
        best = min(best, now() - start)
        rows = count
    }
    print(json([
        ("name", "detectord.CSVRecordingReader"), ("case", "hapt-csv"), ("files", paths.count),
        ("bytes", bytes), ("rows", rows), ("repeat", repeats), ("best_s", best),
        ("mb_per_s", Double(bytes) / best / 1e6), ("rows_per_s", Double(rows) / best),
    ]))

case "hapt":
    // The folder as `bench --dataset hapt` loads it: HAPTDataset.loadAll, labels included, files on
    // `--workers` threads (default: one per core). The best of N passes, page cache warm.
    guard args.count >= 2 else { fail("usage: parse-bench hapt <folder> [--repeat N] [--workers N]") }
    let repeats = Int(option("--repeat", in: args) ?? "5") ?? 5
    let workers = option("--workers", in: args).flatMap { Int($0) } ?? ProcessInfo.processInfo.activeProcessorCount
    let data: HAPTDataset
    do { data = try HAPTDataset(root: args[1]) } catch { fail("\(error)") }
    let bytes = data.files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
    var best = Double.infinity
    var rows = 0
    for _ in 0..<max(repeats, 1) {
        let start = now()
        var count = 0
        for outcome in data.loadAll(workers: workers) {
            do { count += try outcome.get().recording.recording.samples.count } catch { fail("\(error)") }
        }
        best = min(best, now() - start)
        rows = count
    }
    print(json([
        ("name", "detectord.HAPTDataset.loadAll"), ("case", "hapt-csv"), ("files", data.files.count), ("workers", workers),
        ("bytes", bytes), ("rows", rows), ("repeat", repeats), ("best_s", best),
        ("mb_per_s", Double(bytes) / best / 1e6), ("rows_per_s", Double(rows) / best),
    ]))

case "unpack":
    guard args.count >= 3 else { fail("usage: parse-bench unpack <archive> <destination>") }
    do {
        print(try DatasetArchive(archivePath: args[1], destination: args[2]).unpack())
    } catch { fail("\(error)") }

default:
    fail("unknown mode \(mode)")
}
