/// Every issue found in a configuration file, in the order of the file, so one run of
/// `config check` shows them all instead of one per edit.
struct ConfigurationErrors: Error, Sendable, Equatable, CustomStringConvertible {
    var issues: [ConfigurationIssue]

    init(_ issues: [ConfigurationIssue]) {
        self.issues = issues
    }

    /// One issue a line.
    var description: String { issues.map(\.description).joined(separator: "\n") }
}
