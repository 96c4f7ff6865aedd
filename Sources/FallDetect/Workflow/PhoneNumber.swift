/// A phone number in E.164 form: `+`, a country code that does not start with 0, at most 15 digits.
public struct PhoneNumber: Sendable, Hashable, Codable, CustomStringConvertible {
    public let e164: String

    public init?(_ text: String) {
        let digits = text.dropFirst()
        guard text.first == "+", (2...15).contains(digits.count), digits.first != "0",
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        e164 = text
    }

    public var description: String { e164 }
}
