import FallDetect
import Foundation

/// One thing that happened in the running daemon, as the log, the API's event stream and
/// `detectord ctl events` show it: a JSON object with a time, a type and the fields of that type.
struct DaemonEvent: Sendable {
    /// Wall-clock time, UTC nanoseconds.
    var utcNanoseconds: Int64
    var type: String
    var fields: [(String, JSONLine.Value)]
    /// syslog severity for the log line (journald reads `<N>` prefixes).
    var severity: Severity

    enum Severity: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    init(_ type: String, at utcNanoseconds: Int64, severity: Severity = .info, _ fields: [(String, JSONLine.Value)] = []) {
        self.type = type
        self.utcNanoseconds = utcNanoseconds
        self.severity = severity
        self.fields = fields
    }

    /// `{"time": "...", "type": "...", ...}` on one line.
    var json: String {
        JSONLine.make([("time", .string(Self.timestamp(utcNanoseconds))), ("type", .string(type))] + fields)
    }

    /// `type key=value ...` for a human reading the log.
    var logLine: String {
        var text = type
        for (key, value) in fields {
            text += " \(key)=\(Self.plain(value))"
        }
        return text
    }

    /// Strings keep their quotes only when they hold spaces.
    static func plain(_ value: JSONLine.Value) -> String {
        if case .string(let s) = value, !s.isEmpty, !s.contains(" ") { return s }
        return JSONLine.render(value)
    }

    static func timestamp(_ utc: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(utc) / 1e9)
        return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
