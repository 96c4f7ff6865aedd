import Foundation
import Logging

/// One line per log record on standard error. Under systemd (JOURNAL_STREAM is set) each line
/// starts with its syslog priority as `<N>`, which journald turns into the record's priority and
/// strips, and carries no time of its own (journald stamps it); elsewhere it starts with the time
/// and the level.
struct DaemonLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String
    let journald: Bool

    init(label: String, journald: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.label = label
        self.journald = journald
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = journald ? "<\(Self.priority(event.level))>" : "\(DaemonEvent.timestamp(Int64(Date().timeIntervalSince1970 * 1e9))) \(event.level) "
        line += event.message.description
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // One write per line, so lines from different threads never interleave.
        Terminal.standardError.write(line.replacingOccurrences(of: "\n", with: " ") + "\n")
    }

    /// syslog priorities (sd-daemon.h's SD_ERR and friends).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
