/// Where a secret was read from: what messages and summaries may say about it.
enum SecretOrigin: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case environment(String)
    /// Written in the configuration file itself (discouraged: the file is often world-readable
    /// and copied around).
    case inline

    var description: String {
        switch self {
        case .file(let path): "file \(path)"
        case .environment(let name): "environment variable \(name)"
        case .inline: "the configuration file"
        }
    }
}
