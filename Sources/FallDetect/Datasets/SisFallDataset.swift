import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A SisFall folder: `<root>/SisFall_dataset/<SUBJECT>/<CODE>_<SUBJECT>_R<NN>.txt` and, when
/// present, the enhanced labels `<root>/SisFall_enhanced/<SUBJECT>/<same name>`.
///
/// Any subset of subjects works. Every quirk found becomes a line in `notices` (with the file's
/// path) instead of an error: missing or extra trials, files in another subject's folder, missing
/// labels, label files that disagree with their trial, falls marked inside ADL trials. A file that
/// does not parse is reported as `path:line` and skipped; the rest still loads.
public struct SisFallDataset: Sendable {
    /// One trial found on disk.
    public struct Entry: Sendable, Hashable {
        public let name: SisFallTrialName
        public let rawPath: String
        /// nil when there is no label file for this trial.
        public let labelPath: String?
    }

    public let root: String
    /// Trials in `SisFallTrialName` order (subject, activity, repetition).
    public let entries: [Entry]
    /// What scanning noticed; loading adds its own.
    public let notices: [String]
    public let hasEnhancedLabels: Bool

    public var rawDirectory: String { "\(root)/SisFall_dataset" }
    public var enhancedDirectory: String { "\(root)/SisFall_enhanced" }

    /// Scans `root` (which holds `SisFall_dataset/`). Throws `.noData` when that folder is missing.
    public init(root: String) throws {
        self.root = root
        let rawDirectory = "\(root)/SisFall_dataset"
        let enhancedDirectory = "\(root)/SisFall_enhanced"
        guard Self.isDirectory(rawDirectory) else {
            throw FallDetectError(.noData, "SisFall_dataset/ not found", path: rawDirectory)
        }
        hasEnhancedLabels = Self.isDirectory(enhancedDirectory)
        var notices: [String] = []
        if !hasEnhancedLabels {
            notices.append("\(enhancedDirectory): not found; trials load without labels")
        }
        var entries: [Entry] = []
        var seen: [SisFallTrialName: String] = [:]
        var expectedSubjects: [String] = []
        for folder in try Self.list(rawDirectory) {
            let folderPath = "\(rawDirectory)/\(folder)"
            guard Self.isDirectory(folderPath) else {
                if folder != "Readme.txt" { notices.append("\(folderPath): not a subject folder; ignored") }
                continue
            }
            if (try? SisFallTrialName(parsing: "D01_\(folder)_R01")) != nil {
                expectedSubjects.append(folder)
            } else {
                notices.append("\(folderPath): folder name is not a subject id (SA<NN>/SE<NN>)")
            }
            var labelFiles = Set<String>()
            if hasEnhancedLabels, let files = try? Self.list("\(enhancedDirectory)/\(folder)") {
                labelFiles = Set(files)
            }
            var used = Set<String>()
            let files: [String]
            do {
                files = try Self.list(folderPath)
            } catch {
                notices.append("\(error); subject skipped")
                continue
            }
            for file in files {
                let path = "\(folderPath)/\(file)"
                let name: SisFallTrialName
                do {
                    name = try SisFallTrialName(parsing: file, path: path)
                } catch {
                    notices.append("\(error); ignored")
                    continue
                }
                if name.subject != folder {
                    notices.append("\(path): subject \(name.subject) in folder \(folder); the name decides (\(name.group))")
                }
                if let other = seen[name] {
                    notices.append("\(path): duplicate of \(other); ignored")
                    continue
                }
                seen[name] = path
                if let activity = name.activity, name.repetition > activity.trials {
                    notices.append(
                        "\(path): repetition R\(name.repetition) beyond the protocol's \(activity.trials) trial(s) of \(activity.code)")
                }
                var labelPath: String?
                if labelFiles.contains(file) {
                    labelPath = "\(enhancedDirectory)/\(folder)/\(file)"
                    used.insert(file)
                } else if hasEnhancedLabels {
                    notices.append("\(path): no label file in SisFall_enhanced/\(folder)/; trial loads without labels")
                }
                entries.append(Entry(name: name, rawPath: path, labelPath: labelPath))
            }
            for file in labelFiles.subtracting(used).sorted() {
                notices.append("\(enhancedDirectory)/\(folder)/\(file): label file without a trial; ignored")
            }
        }
        // Missing trials, per subject folder, against the Readme's protocol.
        let found = Set(entries.map(\.name))
        for subject in expectedSubjects {
            var missing: [String] = []
            for activity in SisFallActivity.expected(forSubject: subject) {
                for r in 1...activity.trials {
                    let name = try SisFallTrialName(
                        parsing: "\(activity.code)_\(subject)_R\(r < 10 ? "0" : "")\(r)")
                    if !found.contains(name) { missing.append(name.description) }
                }
            }
            if !missing.isEmpty {
                let expected = SisFallActivity.expected(forSubject: subject).reduce(0) { $0 + $1.trials }
                notices.append(
                    "\(rawDirectory)/\(subject): \(missing.count) of \(expected) expected trials missing: "
                        + missing.joined(separator: ", "))
            }
        }
        self.entries = entries.sorted { $0.name < $1.name }
        self.notices = notices
    }

    /// Loads one trial (from `cache` when it holds a current entry) with the notices that loading
    /// it produced. Throws the parser's `path:line` error for a malformed raw file.
    public func load(_ entry: Entry, cache: TrialCache? = nil) throws -> (trial: SisFallTrial, notices: [String]) {
        if let cache, let hit = cache.lookup(entry.name, rawPath: entry.rawPath, labelPath: entry.labelPath) {
            let trial = SisFallTrial(name: entry.name, path: entry.rawPath, rows: hit.rows, labels: hit.labels)
            return (trial, hit.notices)
        }
        let (rows, malformed) = try SisFallParser.readFile(entry.rawPath).withUnsafeBytes {
            try SisFallParser.parseKeepingGoodRows($0, path: entry.rawPath)
        }
        var notices = malformed.map { "\($0); the row takes its neighbour's values and the trial goes on" }
        let labels = Self.labels(for: entry, rowCount: rows.count / 9, notices: &notices)
        if let cache {
            do {
                try cache.store(
                    TrialCache.Entry(rows: rows, labels: labels, notices: notices), for: entry.name,
                    rawPath: entry.rawPath, labelPath: entry.labelPath)
            } catch {
                notices.append("\(error) (trial cache not written)")
            }
        }
        return (SisFallTrial(name: entry.name, path: entry.rawPath, rows: rows, labels: labels), notices)
    }

    /// Reads the label file and reconciles it with the trial's row count.
    static func labels(for entry: Entry, rowCount: Int, notices: inout [String]) -> [UInt8]? {
        guard let labelPath = entry.labelPath else { return nil }
        var labels: [UInt8]
        do {
            labels = try SisFallParser.parseLabels(contentsOf: labelPath)
        } catch {
            notices.append("\(error); trial loads without labels")
            return nil
        }
        let difference = labels.count - rowCount
        if difference == 1 {
            labels.removeLast()
            notices.append("\(labelPath): \(labels.count + 1) labels for \(rowCount) rows; the last label dropped")
        } else if difference == -1 {
            labels.append(labels.last ?? 0)
            notices.append("\(labelPath): \(labels.count - 1) labels for \(rowCount) rows; the last label repeated")
        } else if difference != 0 {
            notices.append(
                "\(FallDetectError(.labelMismatch, "\(labels.count) labels for \(rowCount) rows", path: labelPath)); trial loads without labels")
            return nil
        }
        if !entry.name.isFall && labels.contains(2) {
            notices.append("\(labelPath): labels mark a fall (2) inside ADL trial \(entry.name)")
        }
        return labels
    }

    /// Loads every trial, on `workers` threads (default: one per core), in `entries` order.
    /// Files that fail are skipped and reported in the notices as `path:line: …`.
    public func loadAll(cache: TrialCache? = nil, workers: Int? = nil) -> (trials: [SisFallTrial], notices: [String]) {
        let count = entries.count
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<(SisFallTrial?, [String])>.allocate(capacity: count)
        slots.initialize(repeating: (nil, []))
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        forEachIndex(workers: workers) { i in
            do {
                let (trial, notices) = try load(entries[i], cache: cache)
                slots[i] = (trial, notices)
            } catch {
                slots[i] = (nil, ["\(error); skipped"])
            }
        }
        var trials: [SisFallTrial] = []
        trials.reserveCapacity(count)
        var notices = self.notices
        for (trial, more) in slots {
            if let trial { trials.append(trial) }
            notices += more
        }
        return (trials, notices)
    }

    /// Loads every trial and hands each to `body` on a worker thread as soon as it is ready, so
    /// that a pass over the whole dataset need not hold it in memory. Returns all notices.
    public func forEachTrial(
        cache: TrialCache? = nil, workers: Int? = nil, _ body: @Sendable (SisFallTrial) -> Void
    ) -> [String] {
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<[String]>.allocate(capacity: entries.count)
        slots.initialize(repeating: [])
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        forEachIndex(workers: workers) { i in
            do {
                let (trial, notices) = try load(entries[i], cache: cache)
                body(trial)
                slots[i] = notices
            } catch {
                slots[i] = ["\(error); skipped"]
            }
        }
        return notices + slots.flatMap { $0 }
    }

    /// Runs `body` for every entry index on `workers` threads; each thread takes the next index
    /// from a shared counter, so long and short trials balance out.
    func forEachIndex(workers: Int?, _ body: @Sendable (Int) -> Void) {
        ConcurrentIndices.forEach(count: entries.count, workers: workers, body)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Names in a directory, sorted, without "." entries.
    static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw FallDetectError.io("cannot list", path: path, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
