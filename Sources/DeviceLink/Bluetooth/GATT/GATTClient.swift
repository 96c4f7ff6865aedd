/// The GATT procedures a keychain needs, on an ATT bearer (Core spec Vol 3 Part G §4; the same
/// steps as BlueZ's `src/shared/gatt-helpers.c`). Each discovery loop insists that handles go up,
/// so a peer answering the same range forever cannot keep us in it.
public struct GATTClient: Sendable {
    public let bearer: ATTBearer
    /// The limit for each request; the ATT spec's 30 s unless the caller needs an answer sooner.
    public var timeout: Double

    public init(bearer: ATTBearer, timeout: Double = 30) {
        self.bearer = bearer
        self.timeout = timeout
    }

    /// Exchange MTU; returns the agreed MTU. A peer that does not support it keeps 23.
    @discardableResult
    public func exchangeMTU() async throws(ATTError) -> Int {
        do {
            _ = try await bearer.request(.exchangeMTURequest(mtu: bearer.preferredMTU), timeout: timeout)
        } catch .errorResponse(_, _, .requestNotSupported) {
            return ATTBearer.defaultMTU
        }
        return bearer.mtu
    }

    public func primaryServices() async throws(ATTError) -> [GATTService] {
        var services: [GATTService] = []
        var start: UInt16 = 0x0001
        while true {
            let answer: ATTPDU
            do {
                answer = try await bearer.request(.readByGroupTypeRequest(start: start, end: 0xFFFF, type: .primaryService), timeout: timeout)
            } catch .errorResponse(_, _, .attributeNotFound) {
                return services
            }
            guard case .readByGroupTypeResponse(let groups) = answer else { throw .unexpectedResponse(request: 0x10, got: answer.opcode) }
            for group in groups {
                guard group.handle >= start, group.endHandle >= group.handle else {
                    throw .protocolViolation("service at 0x\(String(group.handle, radix: 16)) outside the range asked for")
                }
                guard let uuid = BluetoothUUID(littleEndian: group.value) else {
                    throw .protocolViolation("service UUID of \(group.value.count) bytes")
                }
                services.append(GATTService(uuid: uuid, handle: group.handle, endHandle: group.endHandle))
                start = group.endHandle
            }
            if start == 0xFFFF { return services }
            start += 1
        }
    }

    /// The characteristics of `service`, each with its end handle worked out.
    public func characteristics(of service: GATTService) async throws(ATTError) -> [GATTCharacteristic] {
        var found: [GATTCharacteristic] = []
        var start = service.handle
        while start <= service.endHandle {
            let answer: ATTPDU
            do {
                answer = try await bearer.request(.readByTypeRequest(start: start, end: service.endHandle, type: .characteristic), timeout: timeout)
            } catch .errorResponse(_, _, .attributeNotFound) {
                break
            }
            guard case .readByTypeResponse(let entries) = answer else { throw .unexpectedResponse(request: 0x08, got: answer.opcode) }
            for entry in entries {
                // Declaration value: properties (1), value handle (2), UUID (2 or 16).
                guard entry.handle >= start, entry.handle <= service.endHandle, entry.value.count == 5 || entry.value.count == 19,
                      let uuid = BluetoothUUID(littleEndian: entry.value[3...]) else {
                    throw .protocolViolation("characteristic declaration at 0x\(String(entry.handle, radix: 16))")
                }
                let valueHandle = UInt16(entry.value[1]) | UInt16(entry.value[2]) << 8
                guard valueHandle > entry.handle else {
                    throw .protocolViolation("value handle 0x\(String(valueHandle, radix: 16)) not after its declaration")
                }
                if var previous = found.popLast() {
                    previous.endHandle = entry.handle - 1
                    found.append(previous)
                }
                found.append(GATTCharacteristic(uuid: uuid, declarationHandle: entry.handle, valueHandle: valueHandle,
                                                properties: GATTCharacteristicProperties(rawValue: entry.value[0]),
                                                endHandle: service.endHandle))
                start = entry.handle
            }
            if start == 0xFFFF { break }
            start += 1
        }
        return found
    }

    public func descriptors(of characteristic: GATTCharacteristic) async throws(ATTError) -> [GATTDescriptor] {
        guard characteristic.valueHandle < characteristic.endHandle else { return [] }
        var found: [GATTDescriptor] = []
        var start = characteristic.valueHandle + 1
        while start <= characteristic.endHandle {
            let answer: ATTPDU
            do {
                answer = try await bearer.request(.findInformationRequest(start: start, end: characteristic.endHandle), timeout: timeout)
            } catch .errorResponse(_, _, .attributeNotFound) {
                break
            }
            guard case .findInformationResponse(let entries) = answer else { throw .unexpectedResponse(request: 0x04, got: answer.opcode) }
            for entry in entries {
                guard entry.handle >= start, entry.handle <= characteristic.endHandle else {
                    throw .protocolViolation("descriptor at 0x\(String(entry.handle, radix: 16)) outside the range asked for")
                }
                found.append(GATTDescriptor(uuid: entry.uuid, handle: entry.handle))
                start = entry.handle
            }
            if start == 0xFFFF { break }
            start += 1
        }
        return found
    }

    public func read(_ handle: UInt16) async throws(ATTError) -> [UInt8] {
        let answer = try await bearer.request(.readRequest(handle: handle), timeout: timeout)
        guard case .readResponse(let value) = answer else { throw .unexpectedResponse(request: 0x0A, got: answer.opcode) }
        return value
    }

    public func write(_ handle: UInt16, _ value: [UInt8]) async throws(ATTError) {
        try checkLength(value)
        _ = try await bearer.request(.writeRequest(handle: handle, value: value), timeout: timeout)
    }

    public func writeWithoutResponse(_ handle: UInt16, _ value: [UInt8]) throws(ATTError) {
        try checkLength(value)
        try bearer.send(.writeCommand(handle: handle, value: value))
    }

    /// Writes the Client Characteristic Configuration: 0x0001 notifications, 0x0002 indications.
    public func subscribe(configuration handle: UInt16, indications: Bool = false) async throws(ATTError) {
        try await write(handle, indications ? [0x02, 0x00] : [0x01, 0x00])
    }

    private func checkLength(_ value: [UInt8]) throws(ATTError) {
        let limit = bearer.mtu - 3
        if value.count > limit { throw .valueTooLong(count: value.count, limit: limit) }
    }
}
