/// One thing wrong in a configuration file, with where it is and what would be right.
struct ConfigurationIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named to `load`/`parse`.
    var path: String
    /// 1-based line; nil when the thing is missing from the file altogether (a required table).
    var line: Int?
    /// 1-based column, where known.
    var column: Int?
    /// The dotted field, `sensor.rate_hz` or `contacts[2].phone` (contacts count from 1, as in the
    /// file); nil for the file as a whole (unreadable, not TOML).
    var field: String?
    /// What is wrong and what is expected. Never contains a secret's value.
    var message: String

    init(path: String, line: Int? = nil, column: Int? = nil, field: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `path:line:column: field: message`, the form editors and terminals link to; the parts that
    /// are unknown are left out.
    var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let field { text += "\(field): " }
        return text + message
    }
}
