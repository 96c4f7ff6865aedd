import Foundation
import FallDetect

/// `[person]`: who wears the device; every alert names them. Required.
struct PersonSettings: Sendable, Equatable {
    var person: ProtectedPerson

    static let keys = ["name", "phone", "country"]

    /// Reads the table, reporting every wrong field rather than the first (as `ProtectedPerson`
    /// would); the rules are the same, and `ProtectedPerson` checks them again.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var name = table.string("name", required: "the wearer's full name")
        if let text = name, !(text.trimmingCharacters(in: .whitespaces).count >= 2 && text.contains(where: \.isLetter)) {
            table.context.report(table.field("name"), "\"\(text)\" is not a full name")
            name = nil
        }
        let phone = table.string("phone", required: "the wearer's E.164 number such as +351912345678").flatMap {
            PhoneNumberField.read($0, table.field("phone"), table.context)
        }
        var country = table.string("country", required: "an ISO 3166-1 alpha-2 code such as PT")
        if let code = country, !(code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }) {
            table.context.report(table.field("country"), "\"\(code)\" is not an ISO 3166-1 alpha-2 code such as PT (two capital letters)")
            country = nil
        }
        guard let name, let phone, let country else { return nil }
        do {
            person = try ProtectedPerson(fullName: name, phone: phone.e164, country: country)
        } catch {
            table.context.report(table.field(error.field ?? "name"), error.message)
            return nil
        }
    }
}
