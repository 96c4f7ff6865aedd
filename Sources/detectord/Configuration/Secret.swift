/// A secret's bytes and where they came from. Every textual form (description, debug description,
/// `dump`) names the origin and the length, never the bytes, so a secret cannot leak into a log or
/// an error message by being interpolated.
struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let bytes: [UInt8]
    let origin: SecretOrigin

    init(bytes: [UInt8], origin: SecretOrigin) {
        self.bytes = bytes
        self.origin = origin
    }

    var description: String { "secret from \(origin) (\(bytes.count) bytes)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["origin": origin, "count": bytes.count]) }

    static let keys = ["secret_file", "secret_env", "secret"]

    /// Reads exactly one of `secret_file` (its contents without the final line break),
    /// `secret_env` (a variable's name) and `secret` (the text itself) from `table`, with at least
    /// `minimumBytes`. Messages name the file or variable, never what is in it.
    static func read(from table: ConfigurationTable, minimumBytes: Int) -> Secret? {
        let given = keys.filter(table.contains)
        guard given.count == 1, let key = given.first else {
            if given.isEmpty {
                table.missing("secret_file", "one of secret_file (a file holding the secret), secret_env (an environment variable's name) or secret")
            } else {
                table.context.report(table.field(given[1]), "give one of \(given.joined(separator: ", ")), not several", at: .key)
            }
            return nil
        }
        let field = table.field(key)
        let secret: Secret
        switch key {
        case "secret_file":
            guard let path = table.path(key) else { return nil }
            do {
                var bytes = try ReferencedFile.read(path)
                // `echo secret > file` adds a line break that is not part of the secret.
                while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
                secret = Secret(bytes: bytes, origin: .file(path))
            } catch {
                table.context.report(field, error.message)
                return nil
            }
        case "secret_env":
            guard let name = table.string(key) else { return nil }
            guard let value = table.context.environment[name] else {
                table.context.report(field, "the environment variable \(name) is not set")
                return nil
            }
            secret = Secret(bytes: Array(value.utf8), origin: .environment(name))
        default:
            guard let text = table.string(key) else { return nil }
            secret = Secret(bytes: Array(text.utf8), origin: .inline)
        }
        guard secret.bytes.count >= minimumBytes else {
            table.context.report(field, "the secret from \(secret.origin) has \(secret.bytes.count) bytes; at least \(minimumBytes) are needed")
            return nil
        }
        return secret
    }
}
