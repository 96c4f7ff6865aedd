import Foundation

/// What the readers of one file share: where the file is (relative paths in it are taken from its
/// folder), the environment (for `secret_env`), and the issues found so far, each placed on its
/// line and column.
final class ConfigurationContext {
    /// Which column an issue points at: the key (unknown or missing keys) or its value.
    enum Position {
        case key, value
    }

    let path: String
    let sourceMap: TOMLSourceMap
    let environment: [String: String]
    private(set) var issues: [ConfigurationIssue] = []

    init(path: String, sourceMap: TOMLSourceMap, environment: [String: String]) {
        self.path = path
        self.sourceMap = sourceMap
        self.environment = environment
    }

    /// An issue at `field`, or at the nearest enclosing table the text names when the field itself
    /// is missing; without any, the issue has no line.
    func report(_ field: String, _ message: String, at position: Position = .value) {
        let entry = sourceMap.entry(nearest: field)
        let column = entry.map { position == .key ? $0.keyColumn : $0.valueColumn }
        issues.append(ConfigurationIssue(path: path, line: entry?.line, column: column, field: field, message: message))
    }

    /// The issues in the order of the file; those without a line (missing tables) first.
    var sortedIssues: [ConfigurationIssue] {
        issues.enumerated().sorted { a, b in
            (a.element.line ?? 0, a.element.column ?? 0, a.offset) < (b.element.line ?? 0, b.element.column ?? 0, b.offset)
        }.map(\.element)
    }

    /// `name` as written when absolute, else taken from the configuration file's folder, so the
    /// file means the same whatever directory the daemon starts in.
    func resolve(_ name: String) -> String {
        guard !name.hasPrefix("/") else { return name }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return folder.appendingPathComponent(name).standardizedFileURL.path
    }
}
