/// `[api]`: where the API and the device's page listen, and the certificate for HTTPS. Optional:
/// loopback only, 127.0.0.1:8180. Any other address needs the login (`detectord ctl token`);
/// with `certificate` and `key` (PEM files) it is served over HTTPS.
struct APISettings: Sendable, Equatable {
    /// A host name or address; IPv6 without brackets.
    var host: String
    var port: Int
    /// PEM files for HTTPS; both or neither.
    var certificate: String?
    var key: String?

    static let keys = ["listen", "certificate", "key"]

    /// Listening on loopback only: no login is asked for.
    var isLoopbackOnly: Bool { ["localhost", "::1"].contains(host) || host.hasPrefix("127.") }

    init(host: String = "127.0.0.1", port: Int = 8180) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with brackets around an IPv6 address.
    var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        self.init()
        var ok = true
        if table.contains("listen") {
            guard let text = table.string("listen") else { return nil }
            if let (host, port) = Self.split(text) {
                self.host = host
                self.port = port
            } else {
                table.context.report(table.field("listen"), "\"\(text)\" is not host:port such as 127.0.0.1:8180 or [::1]:8180 (port 1 to 65535)")
                ok = false
            }
        }
        certificate = table.path("certificate")
        key = table.path("key")
        if (certificate == nil) != (key == nil) {
            table.context.report(table.field(certificate == nil ? "certificate" : "key"), "give certificate and key together (PEM files), or neither", at: .key)
            ok = false
        }
        for (name, path) in [("certificate", certificate), ("key", key)] {
            guard let path else { continue }
            do { _ = try ReferencedFile.read(path) } catch {
                table.context.report(table.field(name), error.message)
                ok = false
            }
        }
        guard ok else { return nil }
    }

    /// "127.0.0.1:8180" → ("127.0.0.1", 8180); "[::1]:8180" → ("::1", 8180). `run --listen` also
    /// takes port 0 (the system picks one and the log says which).
    static func split(_ text: String, ports: ClosedRange<Int> = 1...65_535) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), ports.contains(port) else { return nil }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        return (host, port)
    }
}
