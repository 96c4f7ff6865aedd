/// Reads one ATT frame field by field, with every read bounds-checked against what is left.
struct ATTFrameReader {
    private let bytes: [UInt8]
    private var offset = 0
    private var opcode: UInt8?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private var remaining: Int { bytes.count - offset }

    private func fail(_ reason: String) -> ATTDecodeError { ATTDecodeError(opcode: opcode, offset: offset, reason) }

    private mutating func u8(_ field: String) throws(ATTDecodeError) -> UInt8 {
        guard remaining >= 1 else { throw fail("\(field) missing") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func u16(_ field: String) throws(ATTDecodeError) -> UInt16 {
        guard remaining >= 2 else { throw fail("\(field) missing (2 bytes, \(remaining) left)") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private mutating func take(_ count: Int, _ field: String) throws(ATTDecodeError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw fail("\(field) needs \(count) bytes, \(remaining) left") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    private mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private func end() throws(ATTDecodeError) {
        guard remaining == 0 else { throw fail("\(remaining) unexpected trailing bytes") }
    }

    private mutating func uuid(_ field: String) throws(ATTDecodeError) -> BluetoothUUID {
        guard remaining == 2 || remaining == 16, let uuid = BluetoothUUID(littleEndian: rest()) else {
            throw fail("\(field) must be 2 or 16 bytes, got \(remaining)")
        }
        return uuid
    }

    mutating func decodePDU() throws(ATTDecodeError) -> ATTPDU {
        let raw = try u8("opcode")
        opcode = raw
        guard let known = ATTOpcode(rawValue: raw) else { return .other(opcode: raw, parameters: rest()) }
        let pdu: ATTPDU
        switch known {
        case .errorResponse:
            pdu = .errorResponse(request: try u8("request opcode"), handle: try u16("handle"),
                                 code: ATTErrorCode(rawValue: try u8("error code")))
        case .exchangeMTURequest: pdu = .exchangeMTURequest(mtu: try u16("client rx MTU"))
        case .exchangeMTUResponse: pdu = .exchangeMTUResponse(mtu: try u16("server rx MTU"))
        case .findInformationRequest: pdu = .findInformationRequest(start: try u16("start handle"), end: try u16("end handle"))
        case .findInformationResponse: pdu = .findInformationResponse(try informationEntries())
        case .findByTypeValueRequest:
            pdu = .findByTypeValueRequest(start: try u16("start handle"), end: try u16("end handle"),
                                          type: try u16("attribute type"), value: rest())
        case .readByTypeRequest:
            pdu = .readByTypeRequest(start: try u16("start handle"), end: try u16("end handle"), type: try uuid("attribute type"))
        case .readByTypeResponse: pdu = .readByTypeResponse(try handleValues())
        case .readRequest: pdu = .readRequest(handle: try u16("handle"))
        case .readResponse: pdu = .readResponse(rest())
        case .readBlobRequest: pdu = .readBlobRequest(handle: try u16("handle"), offset: try u16("value offset"))
        case .readBlobResponse: pdu = .readBlobResponse(rest())
        case .readByGroupTypeRequest:
            pdu = .readByGroupTypeRequest(start: try u16("start handle"), end: try u16("end handle"), type: try uuid("group type"))
        case .readByGroupTypeResponse: pdu = .readByGroupTypeResponse(try groups())
        case .writeRequest: pdu = .writeRequest(handle: try u16("handle"), value: rest())
        case .writeResponse: pdu = .writeResponse
        case .writeCommand: pdu = .writeCommand(handle: try u16("handle"), value: rest())
        case .handleValueNotification: pdu = .notification(handle: try u16("handle"), value: rest())
        case .handleValueIndication: pdu = .indication(handle: try u16("handle"), value: rest())
        case .handleValueConfirmation: pdu = .confirmation
        default: return .other(opcode: raw, parameters: rest())
        }
        try end()
        return pdu
    }

    private mutating func informationEntries() throws(ATTDecodeError) -> [ATTHandleUUID] {
        let format = try u8("format")
        let uuidLength: Int
        switch format {
        case 0x01: uuidLength = 2
        case 0x02: uuidLength = 16
        default: throw fail("format must be 1 (16-bit) or 2 (128-bit), got \(format)")
        }
        guard remaining > 0, remaining % (2 + uuidLength) == 0 else {
            throw fail("\(remaining) bytes is not a whole number of \(2 + uuidLength)-byte entries")
        }
        var entries: [ATTHandleUUID] = []
        while remaining > 0 {
            let handle = try u16("handle")
            guard let uuid = BluetoothUUID(littleEndian: try take(uuidLength, "UUID")) else { throw fail("bad UUID") }
            entries.append(ATTHandleUUID(handle: handle, uuid: uuid))
        }
        return entries
    }

    private mutating func listLength(minimum: Int) throws(ATTDecodeError) -> Int {
        let length = Int(try u8("length"))
        guard length >= minimum else { throw fail("entry length \(length) is below \(minimum)") }
        guard remaining > 0, remaining % length == 0 else {
            throw fail("\(remaining) bytes is not a whole number of \(length)-byte entries")
        }
        return length
    }

    private mutating func handleValues() throws(ATTDecodeError) -> [ATTHandleValue] {
        let length = try listLength(minimum: 2)
        var entries: [ATTHandleValue] = []
        while remaining > 0 {
            entries.append(ATTHandleValue(handle: try u16("handle"), value: try take(length - 2, "value")))
        }
        return entries
    }

    private mutating func groups() throws(ATTDecodeError) -> [ATTGroupValue] {
        let length = try listLength(minimum: 4)
        var entries: [ATTGroupValue] = []
        while remaining > 0 {
            entries.append(ATTGroupValue(handle: try u16("handle"), endHandle: try u16("end group handle"),
                                         value: try take(length - 4, "value")))
        }
        return entries
    }
}
