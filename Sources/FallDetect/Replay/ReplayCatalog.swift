import Foundation

/// Turns the paths a user gives into an ordered list of recordings to replay, each loaded only
/// when its turn comes so a whole dataset never sits in memory at once.
public struct ReplayCatalog: Sendable {
    public struct Options: Sendable {
        public var csvFormat: CSVFormat
        /// Where parsed dataset trials are cached.
        public var cacheDirectory: String

        public init(csvFormat: CSVFormat = CSVFormat(), cacheDirectory: String = ReplayCatalog.defaultCacheDirectory()) {
            self.csvFormat = csvFormat
            self.cacheDirectory = cacheDirectory
        }
    }

    public struct Entry: Sendable {
        public var name: String
        /// The file it is read from, for errors: the name is what a listing shows.
        public var path: String
        public var load: @Sendable () throws -> LoadedRecording
    }

    public private(set) var entries: [Entry] = []
    /// Things worth telling the user that are not errors: quirks of a dataset, files ignored.
    public private(set) var notices: [String] = []

    /// `$XDG_CACHE_HOME/detectord`, else `~/.cache/detectord`.
    public static func defaultCacheDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/detectord" }
        return (env["HOME"] ?? NSTemporaryDirectory()) + "/.cache/detectord"
    }

    public init(paths: [String], options: Options = Options()) throws(FallDetectError) {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FallDetectError(.io, "no such file or directory", path: path)
            }
            if isDirectory.boolValue {
                if let root = Self.sisFallRoot(containing: path) {
                    try addSisFall(root: root, only: path, options: options)
                } else {
                    try addDirectory(path, options: options)
                }
            } else if let root = Self.sisFallRoot(containing: path), path.lowercased().hasSuffix(".txt") {
                try addSisFall(root: root, only: path, options: options)
            } else if let entry = Self.entry(forFile: path, options: options) {
                entries.append(entry)
            } else {
                throw FallDetectError(.invalidArgument, "not a recording this tool reads (\(Self.knownKinds))", path: path)
            }
        }
    }

    static let knownKinds = ".detrec, .csv, a SisFall trial .txt, or a SisFall folder"

    /// The SisFall root for a path that is the root itself, its `SisFall_dataset/`, a subject
    /// folder in it, or a trial file in one of those; nil for anything else.
    static func sisFallRoot(containing path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        for _ in 0..<3 {
            if url.lastPathComponent == "SisFall_dataset" { return url.deletingLastPathComponent().path }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("SisFall_dataset").path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    /// Adds the trials of a SisFall folder that lie under `only` (the whole root, a subject, a file).
    private mutating func addSisFall(root: String, only: String, options: Options) throws(FallDetectError) {
        let dataset: SisFallDataset
        do {
            dataset = try SisFallDataset(root: root)
        } catch let error as FallDetectError {
            throw error
        } catch {
            throw FallDetectError(.io, "\(error)", path: root)
        }
        notices += dataset.notices
        // The whole root, or the trials at or below the path given (a subject folder, one file).
        let scope = URL(fileURLWithPath: only).standardizedFileURL.path
        let wholeRoot = scope == URL(fileURLWithPath: root).standardizedFileURL.path
        let folder = scope.hasSuffix("/") ? scope : scope + "/"
        let wanted = wholeRoot ? dataset.entries : dataset.entries.filter { entry in
            let raw = URL(fileURLWithPath: entry.rawPath).standardizedFileURL.path
            return raw == scope || raw.hasPrefix(folder)
        }
        guard !wanted.isEmpty else { throw FallDetectError(.noData, "no SisFall trials found", path: only) }
        // A cache that cannot be created only costs speed: read the text instead.
        let cache = try? TrialCache(directory: options.cacheDirectory + "/sisfall")
        if cache == nil { notices.append("\(options.cacheDirectory): cannot create the trial cache; parsing text every time") }
        for entry in wanted {
            entries.append(Entry(name: entry.name.description, path: entry.rawPath) {
                let (trial, notes) = try dataset.load(entry, cache: cache)
                return LoadedRecording(recording: trial.recording(), notes: notes)
            })
        }
    }

    private mutating func addDirectory(_ path: String, options: Options) throws(FallDetectError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw FallDetectError(.io, "cannot list: \((error as NSError).localizedDescription)", path: path)
        }
        var ignored = 0
        for name in names where !name.hasPrefix(".") {
            let child = path + "/" + name
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory) || isDirectory.boolValue { continue }
            if let entry = Self.entry(forFile: child, options: options) {
                entries.append(entry)
            } else if !name.lowercased().hasSuffix(".md") {
                ignored += 1
            }
        }
        if ignored > 0 { notices.append("\(path): ignored \(ignored) file(s) that are not recordings") }
        if entries.isEmpty { throw FallDetectError(.noData, "no recordings found (\(Self.knownKinds))", path: path) }
    }

    private static func entry(forFile path: String, options: Options) -> Entry? {
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "detrec":
            return Entry(name: name, path: path) {
                let result = try RecordingReader().read(path: path)
                return LoadedRecording(recording: result.recording, problems: result.problems)
            }
        case "csv":
            let reader = CSVRecordingReader(format: options.csvFormat)
            return Entry(name: name, path: path) {
                let result = try reader.read(path: path)
                return LoadedRecording(recording: result.recording, problems: result.problems)
            }
        default:
            return nil
        }
    }
}
