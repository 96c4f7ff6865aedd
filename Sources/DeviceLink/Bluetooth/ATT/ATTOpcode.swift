/// ATT opcodes (Core spec Vol 3 Part F §3.4; BlueZ `src/shared/att-types.h`).
public enum ATTOpcode: UInt8, Sendable, CaseIterable {
    case errorResponse = 0x01
    case exchangeMTURequest = 0x02
    case exchangeMTUResponse = 0x03
    case findInformationRequest = 0x04
    case findInformationResponse = 0x05
    case findByTypeValueRequest = 0x06
    case findByTypeValueResponse = 0x07
    case readByTypeRequest = 0x08
    case readByTypeResponse = 0x09
    case readRequest = 0x0A
    case readResponse = 0x0B
    case readBlobRequest = 0x0C
    case readBlobResponse = 0x0D
    case readMultipleRequest = 0x0E
    case readMultipleResponse = 0x0F
    case readByGroupTypeRequest = 0x10
    case readByGroupTypeResponse = 0x11
    case writeRequest = 0x12
    case writeResponse = 0x13
    case prepareWriteRequest = 0x16
    case prepareWriteResponse = 0x17
    case executeWriteRequest = 0x18
    case executeWriteResponse = 0x19
    case handleValueNotification = 0x1B
    case handleValueIndication = 0x1D
    case handleValueConfirmation = 0x1E
    case writeCommand = 0x52
    case signedWriteCommand = 0xD2

    /// Bit 6 marks a command: it gets no response, and an unknown one is ignored (§3.3).
    public static func isCommand(_ raw: UInt8) -> Bool { raw & 0x40 != 0 }

    /// The response that completes this request, nil for PDUs that are not requests.
    public var response: ATTOpcode? {
        switch self {
        case .exchangeMTURequest: .exchangeMTUResponse
        case .findInformationRequest: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeResponse
        case .readRequest: .readResponse
        case .readBlobRequest: .readBlobResponse
        case .readMultipleRequest: .readMultipleResponse
        case .readByGroupTypeRequest: .readByGroupTypeResponse
        case .writeRequest: .writeResponse
        case .prepareWriteRequest: .prepareWriteResponse
        case .executeWriteRequest: .executeWriteResponse
        default: nil
        }
    }

    /// PDUs a server sends that a client must answer or that end a client's request.
    public var isResponse: Bool {
        switch self {
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
             .readByTypeResponse, .readResponse, .readBlobResponse, .readMultipleResponse,
             .readByGroupTypeResponse, .writeResponse, .prepareWriteResponse, .executeWriteResponse:
            true
        default: false
        }
    }
}
