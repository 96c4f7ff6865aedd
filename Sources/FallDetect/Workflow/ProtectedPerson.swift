import Foundation

/// The person a protection session watches over; what every alert tells their contacts.
public struct ProtectedPerson: Sendable, Hashable, Codable {
    public var fullName: String
    public var phone: PhoneNumber
    /// ISO 3166-1 alpha-2 code, e.g. "FR"; decides the emergency number and message language later.
    public var country: String

    /// Checks each field and names the first that is wrong.
    public init(fullName: String, phone: String, country: String) throws(FallDetectError) {
        let name = fullName.trimmingCharacters(in: .whitespaces)
        guard name.count >= 2, name.contains(where: \.isLetter) else {
            throw FallDetectError(.invalidArgument, "a full name is required", field: "name")
        }
        guard let number = PhoneNumber(phone) else {
            throw FallDetectError(.invalidArgument, "\"\(phone)\" is not an E.164 number such as +33612345678", field: "phone")
        }
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw FallDetectError(.invalidArgument, "\"\(country)\" is not an ISO 3166 country code such as FR", field: "country")
        }
        self.fullName = name
        self.phone = number
        self.country = country
    }
}
