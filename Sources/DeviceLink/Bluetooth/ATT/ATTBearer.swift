import FallDetect
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The client side of one ATT bearer. Written here rather than taken from BlueZ: BlueZ's
/// `bt_att`/`bt_gatt_client` live in its daemon sources (not in libbluetooth) and need its main
/// loop, and the D-Bus API would make bluetoothd own the tag.
///
/// One owner thread waits in poll() on the socket and a wake-up descriptor and does all I/O:
/// - one request in flight at a time (the ATT rule); later ones wait in order;
/// - every request has a deadline (30 s by default, as the spec says; callers pass shorter ones);
///   a missed deadline closes the bearer, since the spec allows nothing more on it;
/// - notifications and indications go to `events`, indications confirmed at once;
/// - the peer's own requests are answered (Exchange MTU for real, everything else with the error
///   an empty GATT server gives), so a tag waiting for an answer does not drop the link after its
///   own 30 s timer;
/// - a malformed request from the peer gets Invalid PDU; a malformed answer fails the request it
///   was meant for; nothing the peer sends can stop the thread except hanging up.
public final class ATTBearer: Sendable {
    public let events: AsyncStream<ATTBearerEvent>
    public let label: String
    /// The receive MTU we offer in Exchange MTU.
    public let preferredMTU: UInt16
    public let defaultTimeout: Double

    private let socket: ATTSocket
    private let wake: WakeDescriptor
    private let continuation: AsyncStream<ATTBearerEvent>.Continuation
    private let state: Mutex<State>

    /// ATT's default LE MTU before an exchange (att-types.h `BT_ATT_DEFAULT_LE_MTU`).
    public static let defaultMTU = 23
    /// The receive buffer: the kernel's ATT fixed channel accepts frames up to 672 bytes.
    static let receiveCapacity = 1024

    struct Outgoing: Sendable {
        var pdu: ATTPDU
        var timeout: Double
        var reply: CheckedContinuation<Result<ATTPDU, ATTError>, Never>?
    }

    struct InFlight: Sendable {
        var opcode: UInt8
        var expected: UInt8?
        var deadline: Int64
        var timeout: Double
        var reply: CheckedContinuation<Result<ATTPDU, ATTError>, Never>
    }

    struct State: Sendable {
        var queue: [Outgoing] = []
        var inFlight: InFlight?
        var closing = false
        var ended: ATTError?? = nil
        var mtu = ATTBearer.defaultMTU
        var counters = ATTBearerCounters()
    }

    /// Starts the owner thread on a connected socket.
    public init(socket: ATTSocket, label: String, preferredMTU: UInt16 = 517, defaultTimeout: Double = 30) throws(ATTError) {
        self.socket = socket
        self.label = label
        self.preferredMTU = max(UInt16(Self.defaultMTU), preferredMTU)
        self.defaultTimeout = defaultTimeout
        self.wake = try WakeDescriptor()
        self.state = Mutex(State())
        (events, continuation) = AsyncStream.makeStream(of: ATTBearerEvent.self, bufferingPolicy: .unbounded)
        let thread = Thread { [self] in run() }
        thread.name = "att \(label)"
        thread.start()
    }

    /// The MTU both sides agreed (23 until an exchange).
    public var mtu: Int { state.withLock { $0.mtu } }

    public var counters: ATTBearerCounters { state.withLock { $0.counters } }

    /// Sends a request and waits for its response. An Error Response becomes
    /// `ATTError.errorResponse`.
    public func request(_ pdu: ATTPDU, timeout: Double? = nil) async throws(ATTError) -> ATTPDU {
        let limit = timeout ?? defaultTimeout
        let result = await withCheckedContinuation { (reply: CheckedContinuation<Result<ATTPDU, ATTError>, Never>) in
            let refused: ATTError? = state.withLock { state in
                if let ended = state.ended { return ended ?? .closed }
                if state.closing { return .closed }
                state.queue.append(Outgoing(pdu: pdu, timeout: limit, reply: reply))
                return nil
            }
            if let refused { reply.resume(returning: .failure(refused)) } else { wake.signal() }
        }
        return try result.get()
    }

    /// Sends a PDU that gets no response (Write Command). It goes out in order with requests.
    public func send(_ pdu: ATTPDU) throws(ATTError) {
        let refused: ATTError? = state.withLock { state in
            if let ended = state.ended { return ended ?? .closed }
            if state.closing { return .closed }
            state.queue.append(Outgoing(pdu: pdu, timeout: 0, reply: nil))
            return nil
        }
        if let refused { throw refused }
        wake.signal()
    }

    /// Closes the bearer: pending requests fail with `.closed`, the socket is closed (which ends
    /// the LE link when nothing else uses it) and `events` finishes.
    public func close() {
        state.withLock { $0.closing = true }
        wake.signal()
    }

    // MARK: - Owner thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: Self.receiveCapacity)
        var outbox: [[UInt8]] = []
        var ending: ATTError?? = nil
        while ending == nil {
            let now = Self.monotonicNow()
            let step = state.withLock { state -> (closing: Bool, deadline: Int64?) in
                if state.closing { return (true, nil) }
                // Commands go straight out; the next request goes out only when none is in flight.
                while let next = state.queue.first, state.inFlight == nil || next.reply == nil {
                    state.queue.removeFirst()
                    outbox.append(next.pdu.encoded())
                    if let reply = next.reply {
                        let expected = ATTOpcode(rawValue: next.pdu.opcode)?.response?.rawValue
                        state.inFlight = InFlight(opcode: next.pdu.opcode, expected: expected,
                                                  deadline: now + Int64(next.timeout * 1e9), timeout: next.timeout, reply: reply)
                    }
                }
                return (false, state.inFlight?.deadline)
            }
            if step.closing { ending = .some(nil); break }
            if let deadline = step.deadline, now >= deadline {
                ending = .some(timeOut())
                break
            }
            do throws(ATTError) {
                try flush(&outbox)
                let waitMilliseconds = step.deadline.map { Int32(clamping: ($0 - now + 999_999) / 1_000_000) } ?? -1
                var fds = [
                    pollfd(fd: socket.descriptor, events: Int16(POLLIN) | (outbox.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                    pollfd(fd: wake.readable, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&fds, 2, waitMilliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno: errno, operation: "poll")
                }
                if fds[1].revents != 0 { wake.drain() }
                let revents = fds[0].revents
                if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { try receiveAll(&buffer, &outbox) }
                if revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0 { throw .disconnected(errno: socket.pendingError()) }
                if revents & Int16(POLLNVAL) != 0 { throw .system(errno: EBADF, operation: "poll") }
            } catch {
                ending = .some(error)
            }
        }
        finish(ending ?? nil)
    }

    /// Reads every frame waiting. A zero-length read ends the round: it is either an empty frame
    /// or the end of a hung-up socket, which poll's hang-up bit, not recv, decides.
    private func receiveAll(_ buffer: inout [UInt8], _ outbox: inout [[UInt8]]) throws(ATTError) {
        do {
            while let (count, truncated) = try socket.receive(into: &buffer) {
                handle(frame: buffer[0..<count], truncated: truncated, outbox: &outbox)
                if count == 0 { return }
            }
        } catch .disconnected(let code) {
            // Linux hands out a dropped link's error before the frames that came in ahead of the
            // drop (the socket's error is checked, and cleared, before its queue): a press sent
            // just before the tag went out of range would be lost with the link. So the frames
            // still queued are read after it, and the error told after them.
            while let (count, truncated) = try? socket.receive(into: &buffer), count > 0 {
                handle(frame: buffer[0..<count], truncated: truncated, outbox: &outbox)
            }
            throw .disconnected(errno: code)
        }
    }

    private func flush(_ outbox: inout [[UInt8]]) throws(ATTError) {
        while let frame = outbox.first {
            guard try socket.send(frame) else { return }
            outbox.removeFirst()
            state.withLock { $0.counters.sent += 1 }
        }
    }

    private func timeOut() -> ATTError {
        let flight = state.withLock { state -> InFlight? in
            defer { state.inFlight = nil }
            return state.inFlight
        }
        guard let flight else { return .closed }
        let error = ATTError.timeout(request: flight.opcode, seconds: flight.timeout)
        flight.reply.resume(returning: .failure(error))
        return error
    }

    private func finish(_ error: ATTError?) {
        let (flight, queued) = state.withLock { state -> (InFlight?, [Outgoing]) in
            state.ended = .some(error)
            defer { state.inFlight = nil; state.queue = [] }
            return (state.inFlight, state.queue)
        }
        let failure = error ?? .closed
        flight?.reply.resume(returning: .failure(failure))
        for item in queued { item.reply?.resume(returning: .failure(failure)) }
        socket.close()
        wake.close()
        continuation.yield(.closed(error, at: Self.monotonicNow()))
        continuation.finish()
    }

    private func handle(frame: ArraySlice<UInt8>, truncated: Bool, outbox: inout [[UInt8]]) {
        state.withLock { $0.counters.received += 1 }
        guard let first = frame.first else {
            state.withLock { $0.counters.ignored += 1 }
            return
        }
        let pdu: ATTPDU
        do throws(ATTDecodeError) {
            if truncated { throw ATTDecodeError(opcode: first, offset: frame.count, "frame longer than \(Self.receiveCapacity) bytes") }
            pdu = try ATTPDU.decode(frame)
        } catch {
            rejectMalformed(opcode: first, error, outbox: &outbox)
            return
        }
        let now = Self.monotonicNow()
        switch pdu {
        case .notification(let handle, let value):
            continuation.yield(.notification(handle: handle, value: value, receivedAt: now))
        case .indication(let handle, let value):
            outbox.append(ATTPDU.confirmation.encoded())
            continuation.yield(.indication(handle: handle, value: value, receivedAt: now))
        case .exchangeMTURequest(let theirs):
            state.withLock { $0.mtu = Self.agreedMTU(theirs, preferredMTU) }
            outbox.append(ATTPDU.exchangeMTUResponse(mtu: preferredMTU).encoded())
            state.withLock { $0.counters.answered += 1 }
        case .findInformationRequest(let start, _), .readByTypeRequest(let start, _, _),
             .readByGroupTypeRequest(let start, _, _), .findByTypeValueRequest(let start, _, _, _):
            answer(pdu.opcode, handle: start, .attributeNotFound, outbox: &outbox)
        case .readRequest(let handle), .readBlobRequest(let handle, _), .writeRequest(let handle, _):
            answer(pdu.opcode, handle: handle, .invalidHandle, outbox: &outbox)
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .readByTypeResponse, .readResponse,
             .readBlobResponse, .readByGroupTypeResponse, .writeResponse:
            complete(with: pdu)
        case .other(let opcode, _):
            if let known = ATTOpcode(rawValue: opcode), known.isResponse {
                complete(with: pdu)
            } else if ATTOpcode.isCommand(opcode) || opcode == ATTOpcode.handleValueConfirmation.rawValue {
                state.withLock { $0.counters.ignored += 1 }
            } else {
                answer(opcode, handle: 0, .requestNotSupported, outbox: &outbox)
            }
        case .writeCommand, .confirmation:
            state.withLock { $0.counters.ignored += 1 }
        }
    }

    private func rejectMalformed(opcode: UInt8, _ error: ATTDecodeError, outbox: inout [[UInt8]]) {
        state.withLock { $0.counters.malformed += 1 }
        if let known = ATTOpcode(rawValue: opcode), known.isResponse {
            let flight = state.withLock { state -> InFlight? in
                defer { state.inFlight = nil }
                return state.inFlight
            }
            flight?.reply.resume(returning: .failure(.malformed(error)))
        } else if !ATTOpcode.isCommand(opcode), ![ATTOpcode.handleValueNotification, .handleValueIndication, .handleValueConfirmation]
            .map(\.rawValue).contains(opcode) {
            answer(opcode, handle: 0, .invalidPDU, outbox: &outbox)
        }
        // A malformed notification, indication or command is dropped: none expects an answer.
    }

    private func answer(_ request: UInt8, handle: UInt16, _ code: ATTErrorCode, outbox: inout [[UInt8]]) {
        outbox.append(ATTPDU.errorResponse(request: request, handle: handle, code: code).encoded())
        state.withLock { $0.counters.answered += 1 }
    }

    private func complete(with pdu: ATTPDU) {
        let flight = state.withLock { state -> InFlight? in
            guard let flight = state.inFlight else {
                state.counters.ignored += 1
                return nil
            }
            state.inFlight = nil
            return flight
        }
        guard let flight else { return }
        if case .errorResponse(let request, let handle, let code) = pdu {
            let result: ATTError = request == flight.opcode
                ? .errorResponse(request: request, handle: handle, code: code)
                : .unexpectedResponse(request: flight.opcode, got: pdu.opcode)
            flight.reply.resume(returning: .failure(result))
        } else if pdu.opcode == flight.expected {
            if case .exchangeMTUResponse(let theirs) = pdu {
                state.withLock { $0.mtu = Self.agreedMTU(theirs, preferredMTU) }
            }
            flight.reply.resume(returning: .success(pdu))
        } else {
            flight.reply.resume(returning: .failure(.unexpectedResponse(request: flight.opcode, got: pdu.opcode)))
        }
    }

    static func agreedMTU(_ theirs: UInt16, _ ours: UInt16) -> Int {
        max(defaultMTU, Int(min(theirs, ours)))
    }

    static func monotonicNow() -> Int64 { MonotonicTime.nowNanoseconds() }
}
