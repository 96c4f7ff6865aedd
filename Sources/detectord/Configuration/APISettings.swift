/// `[api]`: the local HTTP API's address. Optional: loopback only, 127.0.0.1:8180, since the API
/// can disarm an alarm.
struct APISettings: Sendable, Equatable {
    /// A host name or address; IPv6 without brackets.
    var host: String
    var port: Int

    static let keys = ["listen"]

    init(host: String = "127.0.0.1", port: Int = 8180) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with brackets around an IPv6 address.
    var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        guard table.contains("listen") else {
            self.init()
            return
        }
        guard let text = table.string("listen") else { return nil }
        guard let (host, port) = Self.split(text) else {
            table.context.report(table.field("listen"), "\"\(text)\" is not host:port such as 127.0.0.1:8180 or [::1]:8180 (port 1 to 65535)")
            return nil
        }
        self.init(host: host, port: port)
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
