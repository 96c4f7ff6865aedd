#if canImport(Glibc)
import Glibc
#endif

/// Why an ATT request or the bearer itself failed.
public enum ATTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No response within the request's time limit. After a timeout the ATT spec allows no further
    /// request on the bearer, so it is closed.
    case timeout(request: UInt8, seconds: Double)
    /// The peer answered with an Error Response.
    case errorResponse(request: UInt8, handle: UInt16, code: ATTErrorCode)
    /// The peer's answer could not be read.
    case malformed(ATTDecodeError)
    /// The peer answered with a PDU that does not complete the pending request.
    case unexpectedResponse(request: UInt8, got: UInt8)
    /// The link went down; `errno` is the socket's pending error (0 when it did not say).
    case disconnected(errno: Int32)
    /// We closed the bearer.
    case closed
    /// A system call failed.
    case system(errno: Int32, operation: String)
    /// The peer's answers break a GATT rule (handles that do not increase, an empty list).
    case protocolViolation(String)
    /// The value does not fit in one PDU at the negotiated MTU.
    case valueTooLong(count: Int, limit: Int)

    /// The bearer is over after this error (no request may follow); after the others (the peer
    /// answered, however badly, or the request was refused before it was sent) it goes on.
    public var endsBearer: Bool {
        switch self {
        case .timeout, .disconnected, .closed, .system: true
        case .errorResponse, .malformed, .unexpectedResponse, .protocolViolation, .valueTooLong: false
        }
    }

    public var description: String {
        func hex(_ value: UInt8) -> String { "0x" + String(value, radix: 16) }
        switch self {
        case .timeout(let request, let seconds): return "no answer to ATT request \(hex(request)) within \(seconds) s"
        case .errorResponse(let request, let handle, let code):
            return "ATT request \(hex(request)) on handle 0x\(String(handle, radix: 16)) refused: \(code)"
        case .malformed(let error): return "malformed answer: \(error)"
        case .unexpectedResponse(let request, let got): return "ATT request \(hex(request)) answered with PDU \(hex(got))"
        case .disconnected(let code):
            return code == 0 ? "link closed by the peer" : "link lost: \(String(cString: strerror(code))) (errno \(code))"
        case .closed: return "link closed"
        case .system(let code, let operation): return "\(operation): \(String(cString: strerror(code))) (errno \(code))"
        case .protocolViolation(let what): return "the peer broke the GATT rules: \(what)"
        case .valueTooLong(let count, let limit): return "value of \(count) bytes does not fit the link's \(limit)"
        }
    }
}
