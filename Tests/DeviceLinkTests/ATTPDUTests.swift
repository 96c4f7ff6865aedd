import Testing
@testable import DeviceLink

@Suite struct ATTPDUTests {
    static let samples: [ATTPDU] = [
        .errorResponse(request: 0x10, handle: 0x0020, code: .attributeNotFound),
        .exchangeMTURequest(mtu: 517), .exchangeMTUResponse(mtu: 23),
        .findInformationRequest(start: 1, end: 0xFFFF),
        .findInformationResponse([ATTHandleUUID(handle: 0x0D, uuid: BluetoothUUID(0x2902))]),
        .findInformationResponse([ATTHandleUUID(handle: 0x21, uuid: BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e")!)]),
        .readByTypeRequest(start: 1, end: 0xFFFF, type: .characteristic),
        .readByTypeResponse([ATTHandleValue(handle: 2, value: [0x02, 3, 0, 0x00, 0x2A]), ATTHandleValue(handle: 4, value: [0x02, 5, 0, 0x01, 0x2A])]),
        .readRequest(handle: 0x0C), .readResponse([96]), .readBlobRequest(handle: 3, offset: 22), .readBlobResponse([1, 2]),
        .readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService),
        .readByGroupTypeResponse([ATTGroupValue(handle: 1, endHandle: 5, value: [0x00, 0x18])]),
        .writeRequest(handle: 0x0E, value: [1, 0]), .writeResponse, .writeCommand(handle: 8, value: [2]),
        .notification(handle: 0x10, value: [1]), .indication(handle: 0x22, value: [1]), .confirmation,
    ]

    @Test func everyPDURoundTrips() throws {
        for pdu in Self.samples {
            #expect(try ATTPDU.decode(pdu.encoded()) == pdu, "\(pdu)")
        }
    }

    @Test func wireBytesFollowTheSpec() {
        #expect(ATTPDU.errorResponse(request: 0x08, handle: 0x0102, code: .attributeNotFound).encoded() == [0x01, 0x08, 0x02, 0x01, 0x0A])
        #expect(ATTPDU.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService).encoded() == [0x10, 1, 0, 0xFF, 0xFF, 0x00, 0x28])
        #expect(ATTPDU.writeRequest(handle: 0x0E, value: [1, 0]).encoded() == [0x12, 0x0E, 0x00, 0x01, 0x00])
    }

    @Test func everyTruncationIsAnErrorNotATrap() {
        for pdu in Self.samples {
            let bytes = pdu.encoded()
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                // Variable-length PDUs may still be valid when shortened; none may trap.
                if let decoded = try? ATTPDU.decode(prefix) { #expect(decoded.encoded() == prefix || decoded.opcode == bytes[0]) }
            }
        }
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([]) }
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x01, 0x08, 0x02]) }
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x03, 0x17, 0x00, 0x00]) }
    }

    @Test func listLengthsMustAddUp() {
        // Length 7 but 6 bytes of entries.
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x09, 7, 2, 0, 0x02, 3, 0, 0x00]) }
        // Length 1 is below the handle's 2 bytes.
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x09, 1, 2]) }
        // Find Information format 3 does not exist.
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x05, 3, 1, 0, 0x02, 0x29]) }
        // A UUID of 3 bytes.
        #expect(throws: ATTDecodeError.self) { try ATTPDU.decode([0x08, 1, 0, 0xFF, 0xFF, 0x03, 0x28, 0x00]) }
    }

    @Test func randomFramesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...30, using: &generator)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !frame.isEmpty, Bool.random(using: &generator) { frame[0] = ATTOpcode.allCases.randomElement(using: &generator)!.rawValue }
            if let pdu = try? ATTPDU.decode(frame) { #expect(pdu.opcode == frame[0]) }
        }
    }

    @Test func uuidsPrintAndCompareAcrossForms() {
        #expect(BluetoothUUID("FFE0") == BluetoothUUID(0xFFE0))
        #expect(BluetoothUUID("0000ffe0-0000-1000-8000-00805f9b34fb") == BluetoothUUID(0xFFE0))
        #expect(BluetoothUUID(0x2A19).description == "2A19")
        #expect(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")?.description == "6e400001-b5a3-f393-e0a9-e50e24dcca9e")
        #expect(BluetoothUUID("xyz") == nil)
        #expect(ATTErrorCode(rawValue: 0x0A) == .attributeNotFound)
        #expect(ATTErrorCode(rawValue: 0x80).description.contains("application"))
    }
}
