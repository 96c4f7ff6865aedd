/// Why a received PDU could not be read: the opcode, the byte offset where it went wrong and what
/// was expected there. The bearer answers a malformed request with Invalid PDU and fails a pending
/// request whose response is malformed; nothing else happens to the link.
public struct ATTDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var opcode: UInt8?
    public var offset: Int
    public var reason: String

    public init(opcode: UInt8?, offset: Int, _ reason: String) {
        self.opcode = opcode
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        let name = opcode.map { "ATT PDU 0x\(String($0, radix: 16))" } ?? "ATT PDU"
        return "\(name), byte \(offset): \(reason)"
    }
}
