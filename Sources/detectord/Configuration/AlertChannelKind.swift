/// The channels a contact can be reached on; the raw value is the name `Contact.channel` stores.
enum AlertChannelKind: String, Sendable, Equatable, CaseIterable {
    case console, webhook, sms
}
