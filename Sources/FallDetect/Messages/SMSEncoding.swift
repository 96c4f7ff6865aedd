/// How a text travels by SMS: GSM-7 when every character is in the GSM 03.38 alphabet (160
/// characters, 153 per part when split), UCS-2 otherwise (70, 67 per part). Contacts are billed per
/// part, and a name with one accented letter outside GSM-7 more than doubles the count, so the
/// message layer checks before sending.
public struct SMSEncoding: Sendable, Equatable {
    public enum Alphabet: String, Sendable { case gsm7 = "GSM-7", ucs2 = "UCS-2" }

    public let alphabet: Alphabet
    /// Septets for GSM-7 (extension characters count two), UTF-16 code units for UCS-2.
    public let units: Int
    /// SMS parts needed (1 for a single message).
    public let parts: Int

    public init(_ text: String) {
        var septets = 0
        var gsm = true
        for scalar in text.unicodeScalars {
            if Self.basic.contains(scalar) {
                septets += 1
            } else if Self.extended.contains(scalar) {
                septets += 2
            } else {
                gsm = false
                break
            }
        }
        if gsm {
            alphabet = .gsm7
            units = septets
            parts = septets <= 160 ? 1 : (septets + 152) / 153
        } else {
            alphabet = .ucs2
            units = text.utf16.count
            parts = units <= 70 ? 1 : (units + 66) / 67
        }
    }

    /// GSM 03.38 basic character set.
    static let basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)

    /// Reached through the escape character, so each costs two septets.
    static let extended: Set<Unicode.Scalar> = Set("^{}\\[~]|€\u{0C}".unicodeScalars)
}
