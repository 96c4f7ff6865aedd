import Foundation

/// `[channels.webhook]`: alerts POSTed as signed JSON (see `WebhookChannel`).
struct WebhookSettings: Sendable, Equatable {
    var url: URL
    /// The HMAC key the receiver shares.
    var secret: Secret
    var timeoutSeconds: Double

    static let keys = ["url", "timeout_seconds"] + Secret.keys
    /// `WebhookChannel` refuses shorter keys: the signature would prove little.
    static let minimumSecretBytes = 16

    init(url: URL, secret: Secret, timeoutSeconds: Double = 10) {
        self.url = url
        self.secret = secret
        self.timeoutSeconds = timeoutSeconds
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var url: URL?
        if let text = table.string("url", required: "the https URL alerts are POSTed to") {
            url = URL(string: text)
            let scheme = url?.scheme?.lowercased()
            if scheme != "https" && scheme != "http" || url?.host == nil || url?.host?.isEmpty == true {
                table.context.report(table.field("url"), "\"\(text)\" is not an http(s) URL such as https://example.org/detectord")
                url = nil
            }
        }
        let secret = Secret.read(from: table, minimumBytes: Self.minimumSecretBytes)
        let timeout = table.contains("timeout_seconds") ? table.number("timeout_seconds", in: 1...300) : 10
        guard let url, let secret, let timeout else { return nil }
        self.init(url: url, secret: secret, timeoutSeconds: timeout)
    }
}
