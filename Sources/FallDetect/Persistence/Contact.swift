import GRDB

/// A guardian who is told when something happens: a name, one E.164 number, a preferred channel.
public struct Contact: Sendable, Hashable, FetchableRecord {
    public var name: String
    public var phone: PhoneNumber
    /// "sms", "webhook" or "console"; more channels plug in without touching the workflow.
    public var channel: String

    public init(name: String, phone: String, channel: String = "sms") throws(FallDetectError) {
        guard !name.isEmpty else { throw FallDetectError(.invalidArgument, "a contact needs a name", field: "name") }
        guard let number = PhoneNumber(phone) else {
            throw FallDetectError(.invalidArgument, "\"\(phone)\" is not an E.164 number", field: "phone")
        }
        self.name = name
        self.phone = number
        self.channel = channel
    }

    public init(row: Row) throws {
        name = row["name"]
        let text: String = row["phone"]
        guard let number = PhoneNumber(text) else {
            throw FallDetectError(.malformedRow, "stored phone \"\(text)\" is not E.164", field: "phone")
        }
        phone = number
        channel = row["channel"]
    }
}
