import FallDetect

/// Phone numbers in a configuration: E.164, with a message that shows the expected form.
enum PhoneNumberField {
    static func read(_ text: String, _ field: String, _ context: ConfigurationContext) -> PhoneNumber? {
        guard let number = PhoneNumber(text) else {
            context.report(field, "\"\(text)\" is not an E.164 number: + and the country code, then up to 15 digits, no spaces (+351912345678)")
            return nil
        }
        return number
    }
}
