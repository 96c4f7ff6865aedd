/// The GATT server rules a fake peripheral answers by (Core spec Vol 3 Part F §3.4): lists cut to
/// the MTU and to one entry length, Attribute Not Found at the end of a range, the permission
/// errors a real server gives.
enum FakeGATTServer {
    static func answer(_ pdu: ATTPDU, state: inout FakeGATTPeripheral.State) -> ATTPDU? {
        let mtu = state.connection?.mtu ?? 23
        let db = state.database
        func error(_ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU { .errorResponse(request: pdu.opcode, handle: handle, code: code) }
        func badRange(_ start: UInt16, _ end: UInt16) -> Bool { start == 0 || start > end }
        let refusedServices = state.behaviour.refusedServices
        /// The refusal for a discovery starting at `start`, inside a refused service.
        func refusal(_ start: UInt16) -> ATTPDU? {
            guard !refusedServices.isEmpty,
                let service = db.attributes.last(where: { $0.type == .primaryService && $0.handle <= start }),
                start <= db.serviceEnd(service.handle),
                let code = refusedServices.first(where: { $0.key.littleEndian == service.value })?.value
            else { return nil }
            return error(start, code)
        }

        switch pdu {
        case .exchangeMTURequest(let client):
            let server = state.behaviour.mtu
            state.connection?.mtu = max(23, Int(min(client, server)))
            return .exchangeMTUResponse(mtu: server)
        case .readByGroupTypeRequest(let start, let end, let type):
            if badRange(start, end) { return error(start, .invalidHandle) }
            guard type == .primaryService else { return error(start, .unsupportedGroupType) }
            let found = db.attributes.filter { $0.type == .primaryService && $0.handle >= start && $0.handle <= end }
            guard let first = found.first else { return error(start, .attributeNotFound) }
            let length = 4 + first.value.count
            let groups = found.prefix { $0.value.count == first.value.count }.prefix((mtu - 2) / length)
                .map { ATTGroupValue(handle: $0.handle, endHandle: db.serviceEnd($0.handle), value: $0.value) }
            return .readByGroupTypeResponse(groups)
        case .readByTypeRequest(let start, let end, let type):
            if badRange(start, end) { return error(start, .invalidHandle) }
            if let refused = refusal(start) { return refused }
            let found = db.attributes.filter { $0.type == type && $0.handle >= start && $0.handle <= end }
            guard let first = found.first else { return error(start, .attributeNotFound) }
            let length = 2 + min(first.value.count, mtu - 4)
            let entries = found.prefix { $0.value.count == first.value.count }.prefix(max(1, (mtu - 2) / length))
                .map { ATTHandleValue(handle: $0.handle, value: Array($0.value.prefix(mtu - 4))) }
            return .readByTypeResponse(entries)
        case .findInformationRequest(let start, let end):
            if badRange(start, end) { return error(start, .invalidHandle) }
            if let refused = refusal(start) { return refused }
            let found = db.attributes.filter { $0.handle >= start && $0.handle <= end }
            guard let first = found.first else { return error(start, .attributeNotFound) }
            let short = first.type.short != nil
            let entries = found.prefix { ($0.type.short != nil) == short }.prefix((mtu - 2) / (short ? 4 : 18))
                .map { ATTHandleUUID(handle: $0.handle, uuid: $0.type) }
            return .findInformationResponse(entries)
        case .readRequest(let handle), .readBlobRequest(let handle, _):
            guard let attribute = db.attribute(handle) else { return error(handle, .invalidHandle) }
            guard attribute.readable else { return error(handle, .readNotPermitted) }
            if case .readBlobRequest(_, let offset) = pdu {
                guard Int(offset) <= attribute.value.count else { return error(handle, .invalidOffset) }
                return .readBlobResponse(Array(attribute.value.dropFirst(Int(offset)).prefix(mtu - 1)))
            }
            return .readResponse(Array(attribute.value.prefix(mtu - 1)))
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value):
            let isCommand = if case .writeCommand = pdu { true } else { false }
            guard let attribute = db.attribute(handle) else { return isCommand ? nil : error(handle, .invalidHandle) }
            guard attribute.writable else { return isCommand ? nil : error(handle, .writeNotPermitted) }
            if attribute.type == .clientCharacteristicConfiguration {
                guard value.count == 2 else { return isCommand ? nil : error(handle, .invalidAttributeValueLength) }
                state.connection?.subscriptions[handle] = value[0]
            } else if handle == db.handles(service: BluetoothUUID(0x1802), characteristic: BluetoothUUID(0x2A06))?.value {
                guard value.count == 1, value[0] <= 2 else { return isCommand ? nil : error(handle, .valueNotAllowed) }
                state.record.alertLevels.append(value[0])
            } else if handle == db.handles(service: BluetoothUUID(0x1803), characteristic: BluetoothUUID(0x2A06))?.value {
                guard value.count == 1, value[0] <= 2 else { return isCommand ? nil : error(handle, .valueNotAllowed) }
                state.record.linkLossLevel = value[0]
            }
            state.database.setValue(value, at: handle)
            return isCommand ? nil : .writeResponse
        case .notification, .indication, .confirmation:
            return nil
        default:
            return ATTOpcode.isCommand(pdu.opcode) ? nil : error(0, .requestNotSupported)
        }
    }
}
