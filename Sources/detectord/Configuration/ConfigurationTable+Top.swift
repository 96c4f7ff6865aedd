import TOMLKit

extension ConfigurationTable {
    /// The top table of a TOML text, with a fresh context to collect its issues; text that is not
    /// TOML at all is one issue at the parser's line and column.
    static func top(text: String, path: String, environment: [String: String]) throws(ConfigurationErrors) -> ConfigurationTable {
        if let (line, column, reason) = TOMLParserGuard.firstAbort(in: text) {
            throw ConfigurationErrors([ConfigurationIssue(path: path, line: line, column: column, message: "not valid TOML: \(reason)")])
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            throw ConfigurationErrors([
                ConfigurationIssue(path: path, line: position.line, column: position.column, message: "not valid TOML: \(error.description)")
            ])
        } catch {
            throw ConfigurationErrors([ConfigurationIssue(path: path, message: "not valid TOML: \(error)")])
        }
        let context = ConfigurationContext(path: path, sourceMap: TOMLSourceMap(text: text), environment: environment)
        return ConfigurationTable(field: "", table: root, context: context)
    }
}
