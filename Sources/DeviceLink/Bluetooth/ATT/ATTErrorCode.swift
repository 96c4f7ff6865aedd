/// ATT error codes carried by an Error Response (Core spec Vol 3 Part F §3.4.1.1).
public enum ATTErrorCode: Sendable, Equatable, CustomStringConvertible {
    case invalidHandle, readNotPermitted, writeNotPermitted, invalidPDU, insufficientAuthentication
    case requestNotSupported, invalidOffset, insufficientAuthorization, prepareQueueFull
    /// The normal end of a discovery procedure.
    case attributeNotFound
    case attributeNotLong, insufficientEncryptionKeySize, invalidAttributeValueLength, unlikelyError
    case insufficientEncryption, unsupportedGroupType, insufficientResources, databaseOutOfSync
    case valueNotAllowed
    /// Application (0x80–0x9F), profile or other codes.
    case other(UInt8)

    private static let known: [(UInt8, ATTErrorCode, String)] = [
        (0x01, .invalidHandle, "invalid handle"), (0x02, .readNotPermitted, "read not permitted"),
        (0x03, .writeNotPermitted, "write not permitted"), (0x04, .invalidPDU, "invalid PDU"),
        (0x05, .insufficientAuthentication, "insufficient authentication"),
        (0x06, .requestNotSupported, "request not supported"), (0x07, .invalidOffset, "invalid offset"),
        (0x08, .insufficientAuthorization, "insufficient authorization"),
        (0x09, .prepareQueueFull, "prepare queue full"), (0x0A, .attributeNotFound, "attribute not found"),
        (0x0B, .attributeNotLong, "attribute not long"),
        (0x0C, .insufficientEncryptionKeySize, "insufficient encryption key size"),
        (0x0D, .invalidAttributeValueLength, "invalid attribute value length"),
        (0x0E, .unlikelyError, "unlikely error"), (0x0F, .insufficientEncryption, "insufficient encryption"),
        (0x10, .unsupportedGroupType, "unsupported group type"),
        (0x11, .insufficientResources, "insufficient resources"),
        (0x12, .databaseOutOfSync, "database out of sync"), (0x13, .valueNotAllowed, "value not allowed"),
    ]

    public init(rawValue: UInt8) {
        self = Self.known.first { $0.0 == rawValue }?.1 ?? .other(rawValue)
    }

    public var rawValue: UInt8 {
        if case .other(let raw) = self { return raw }
        return Self.known.first { $0.1 == self }?.0 ?? 0
    }

    public var description: String {
        if case .other(let raw) = self {
            return raw >= 0x80 && raw <= 0x9F ? "application error 0x\(String(raw, radix: 16))" : "error 0x\(String(raw, radix: 16))"
        }
        return Self.known.first { $0.1 == self }?.2 ?? "error"
    }
}
