import Foundation
import FallDetect

/// One `[[contacts]]` entry: a guardian told when something happens. At least one, at most five.
struct ContactSettings: Sendable, Equatable {
    /// As the workflow stores it; `contact.channel` is `channel`'s name.
    var contact: Contact
    var channel: AlertChannelKind

    static let keys = ["name", "phone", "channel"]
    static let maximumCount = 5

    /// Reads one entry; whether its channel is configured is checked with the channels.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var name = table.string("name", required: "the contact's name")
        if let text = name, text.trimmingCharacters(in: .whitespaces).isEmpty {
            table.context.report(table.field("name"), "is empty; expected the contact's name")
            name = nil
        }
        let phone = table.string("phone", required: "the contact's E.164 number such as +351913333333").flatMap {
            PhoneNumberField.read($0, table.field("phone"), table.context)
        }
        let channel: AlertChannelKind? = table.contains("channel") ? table.choice("channel") : .sms
        guard let name, let phone, let channel else { return nil }
        do {
            contact = try Contact(name: name.trimmingCharacters(in: .whitespaces), phone: phone.e164, channel: channel.rawValue)
        } catch {
            table.context.report(table.field(error.field ?? "name"), error.message)
            return nil
        }
        self.channel = channel
    }
}
