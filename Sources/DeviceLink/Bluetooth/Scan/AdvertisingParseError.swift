/// Why advertising bytes could not be read: the byte offset and the field.
public struct AdvertisingParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public init(offset: Int, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "advertising data, byte \(offset): \(reason)" }
}
