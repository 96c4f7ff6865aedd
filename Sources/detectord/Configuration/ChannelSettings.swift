/// `[channels.*]`: how alerts leave the device. Optional: the console alone (a device that must
/// reach someone needs webhook or sms, which its contacts then name).
struct ChannelSettings: Sendable, Equatable {
    /// Alerts printed on standard output, for demos and the journal.
    var console: Bool
    var webhook: WebhookSettings?
    var sms: SMSSettings?

    static let keys = ["console", "webhook", "sms"]

    init(console: Bool = true, webhook: WebhookSettings? = nil, sms: SMSSettings? = nil) {
        self.console = console
        self.webhook = webhook
        self.sms = sms
    }

    /// The channels configured, in the order `AlertChannelKind` lists them.
    var configured: [AlertChannelKind] {
        AlertChannelKind.allCases.filter { isConfigured($0) }
    }

    func isConfigured(_ kind: AlertChannelKind) -> Bool {
        switch kind {
        case .console: console
        case .webhook: webhook != nil
        case .sms: sms != nil
        }
    }

    /// Reads the table; each sub-table is read even when another one is broken.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var console: Bool? = true
        if let sub = table.table("console") {
            sub.rejectUnknownKeys(known: ["enabled"])
            console = sub.contains("enabled") ? sub.bool("enabled") : true
        }
        let webhookTable = table.table("webhook")
        let webhook = webhookTable.flatMap(WebhookSettings.init)
        let smsTable = table.table("sms")
        let sms = smsTable.flatMap(SMSSettings.init)
        guard let console, webhook != nil || !table.contains("webhook"), sms != nil || !table.contains("sms") else { return nil }
        self.init(console: console, webhook: webhook, sms: sms)
    }
}
