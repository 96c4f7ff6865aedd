/// An ATT protocol data unit as one L2CAP frame carries it: an opcode and its parameters, all
/// little-endian (Core spec Vol 3 Part F §3.4). `decode` checks every length before reading, so a
/// truncated or inflated frame from a misbehaving tag is an `ATTDecodeError`, never a trap.
public enum ATTPDU: Sendable, Equatable {
    case errorResponse(request: UInt8, handle: UInt16, code: ATTErrorCode)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([ATTHandleUUID])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByTypeResponse([ATTHandleValue])
    case readRequest(handle: UInt16)
    case readResponse([UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse([UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByGroupTypeResponse([ATTGroupValue])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// A PDU this client never needs to look inside (prepared writes, Read Multiple, Find By Type
    /// Value responses, signed writes, unknown opcodes): kept whole so it can still be answered.
    case other(opcode: UInt8, parameters: [UInt8])

    public var opcode: UInt8 {
        switch self {
        case .errorResponse: ATTOpcode.errorResponse.rawValue
        case .exchangeMTURequest: ATTOpcode.exchangeMTURequest.rawValue
        case .exchangeMTUResponse: ATTOpcode.exchangeMTUResponse.rawValue
        case .findInformationRequest: ATTOpcode.findInformationRequest.rawValue
        case .findInformationResponse: ATTOpcode.findInformationResponse.rawValue
        case .findByTypeValueRequest: ATTOpcode.findByTypeValueRequest.rawValue
        case .readByTypeRequest: ATTOpcode.readByTypeRequest.rawValue
        case .readByTypeResponse: ATTOpcode.readByTypeResponse.rawValue
        case .readRequest: ATTOpcode.readRequest.rawValue
        case .readResponse: ATTOpcode.readResponse.rawValue
        case .readBlobRequest: ATTOpcode.readBlobRequest.rawValue
        case .readBlobResponse: ATTOpcode.readBlobResponse.rawValue
        case .readByGroupTypeRequest: ATTOpcode.readByGroupTypeRequest.rawValue
        case .readByGroupTypeResponse: ATTOpcode.readByGroupTypeResponse.rawValue
        case .writeRequest: ATTOpcode.writeRequest.rawValue
        case .writeResponse: ATTOpcode.writeResponse.rawValue
        case .writeCommand: ATTOpcode.writeCommand.rawValue
        case .notification: ATTOpcode.handleValueNotification.rawValue
        case .indication: ATTOpcode.handleValueIndication.rawValue
        case .confirmation: ATTOpcode.handleValueConfirmation.rawValue
        case .other(let opcode, _): opcode
        }
    }

    /// The frame's bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [opcode]
        func u16(_ value: UInt16) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        switch self {
        case .errorResponse(let request, let handle, let code):
            out.append(request); u16(handle); out.append(code.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu): u16(mtu)
        case .findInformationRequest(let start, let end): u16(start); u16(end)
        case .findInformationResponse(let entries):
            let long = entries.contains { $0.uuid.short == nil }
            out.append(long ? 0x02 : 0x01)
            for entry in entries {
                u16(entry.handle)
                out += long ? Array(entry.uuid.bytes.reversed()) : entry.uuid.littleEndian
            }
        case .findByTypeValueRequest(let start, let end, let type, let value): u16(start); u16(end); u16(type); out += value
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            u16(start); u16(end); out += type.littleEndian
        case .readByTypeResponse(let entries):
            out.append(UInt8(truncatingIfNeeded: 2 + (entries.first?.value.count ?? 0)))
            for entry in entries { u16(entry.handle); out += entry.value }
        case .readRequest(let handle): u16(handle)
        case .readResponse(let value), .readBlobResponse(let value): out += value
        case .readBlobRequest(let handle, let offset): u16(handle); u16(offset)
        case .readByGroupTypeResponse(let groups):
            out.append(UInt8(truncatingIfNeeded: 4 + (groups.first?.value.count ?? 0)))
            for group in groups { u16(group.handle); u16(group.endHandle); out += group.value }
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .notification(let handle, let value), .indication(let handle, let value):
            u16(handle); out += value
        case .writeResponse, .confirmation: break
        case .other(_, let parameters): out += parameters
        }
        return out
    }

    public static func decode(_ frame: some Collection<UInt8>) throws(ATTDecodeError) -> ATTPDU {
        var reader = ATTFrameReader(Array(frame))
        return try reader.decodePDU()
    }
}
