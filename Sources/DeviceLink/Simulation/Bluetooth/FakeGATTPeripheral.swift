import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An in-process Bluetooth LE peripheral that speaks ATT over a SOCK_SEQPACKET socket: a GATT
/// server over `FakeGATTDatabase`, a button that notifies, a battery, and a beeper that records
/// what it was told. It is not a mock of our client: it is the other side of the protocol, with
/// the misbehaviour of real tags on demand (slow answers, error responses, its own requests,
/// malformed frames, hanging up at any step). The simulated keychain of `make run` is one.
public final class FakeGATTPeripheral: Sendable {
    public let address: BluetoothAddress
    public let name: String
    public let button: (service: BluetoothUUID, characteristic: BluetoothUUID)

    private let state: Mutex<State>
    private let wake: WakeDescriptor

    struct Connection: Sendable {
        var socket: ATTSocket
        var requests = 0
        var mtu = 23
        var subscriptions: [UInt16: UInt8] = [:]
    }

    struct State: Sendable {
        var database: FakeGATTDatabase
        var behaviour = FakePeripheralBehaviour()
        var connection: Connection?
        var outbox: [(due: Int64, frame: [UInt8])] = []
        var record = FakePeripheralRecord()
        var stopping = false
        /// Sockets hung up by another thread, for the server thread to close: it may be waiting
        /// on one, and a number closed under it could be reused by anyone.
        var hungUp: [ATTSocket] = []
    }

    public init(address: BluetoothAddress, name: String = "iTAG", database: FakeGATTDatabase = .iTag(),
                button: (service: BluetoothUUID, characteristic: BluetoothUUID) = (BluetoothUUID(0xFFE0), BluetoothUUID(0xFFE1))) throws(ATTError) {
        self.address = address
        self.name = name
        self.button = button
        state = Mutex(State(database: database))
        wake = try WakeDescriptor()
        let thread = Thread { [self] in run() }
        thread.name = "fake peripheral \(address)"
        thread.start()
    }

    // MARK: - Driving it

    public var behaviour: FakePeripheralBehaviour {
        get { state.withLock { $0.behaviour } }
        set { state.withLock { $0.behaviour = newValue } }
    }

    /// What it saw and was told.
    public var record: FakePeripheralRecord { state.withLock { $0.record } }

    public var isConnected: Bool { state.withLock { $0.connection != nil } }

    /// Serves a new connection on `socket` (the previous one, if any, is hung up). Subscriptions
    /// start cleared, as on a tag that keeps no bond.
    public func accept(_ socket: ATTSocket) {
        state.withLock { state in
            if let old = state.connection?.socket { state.hungUp.append(old) }
            state.connection = Connection(socket: socket)
            state.outbox = []
            state.record.connections += 1
        }
        wake.signal()
    }

    /// A press of the button: one notification (or indication) of 0x01 when subscribed. `repeats`
    /// sends the same press again, as some firmware does.
    public func press(repeats: Int = 1) {
        for _ in 0..<max(1, repeats) { sendValue([0x01], of: button.service, button.characteristic, always: true) }
    }

    public func setBattery(_ percent: UInt8) {
        sendValue([percent], of: BluetoothUUID(0x180F), BluetoothUUID(0x2A19), always: false)
    }

    /// Sends a frame as is (malformed or truncated PDUs).
    public func sendRaw(_ frame: [UInt8]) { enqueue(frame, delay: 0) }

    /// Sends one of its own requests to the client; the answer lands in `record.answers`.
    public func ask(_ request: ATTPDU) { enqueue(request.encoded(), delay: 0) }

    /// Hangs up, as a tag going out of range or switched off by a long press.
    public func disconnect() {
        state.withLock { state in
            if let socket = state.connection?.socket { state.hungUp.append(socket) }
            state.connection = nil
            state.outbox = []
        }
        wake.signal()
    }

    /// Stops its thread and hangs up.
    public func stop() {
        disconnect()
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    private func sendValue(_ value: [UInt8], of service: BluetoothUUID, _ characteristic: BluetoothUUID, always: Bool) {
        let frame = state.withLock { state -> [UInt8]? in
            guard let handles = state.database.handles(service: service, characteristic: characteristic) else { return nil }
            state.database.setValue(value, at: handles.value)
            guard let connection = state.connection else { return nil }
            let config = handles.configuration.flatMap { connection.subscriptions[$0] } ?? 0
            if config & 0x02 != 0 { return ATTPDU.indication(handle: handles.value, value: value).encoded() }
            if config & 0x01 != 0 || (always && state.behaviour.notifiesWithoutSubscription) {
                return ATTPDU.notification(handle: handles.value, value: value).encoded()
            }
            return nil
        }
        if let frame {
            state.withLock { $0.record.valuesSent += 1 }
            enqueue(frame, delay: 0)
        }
    }

    private func enqueue(_ frame: [UInt8], delay: Double) {
        let due = ATTBearer.monotonicNow() + Int64(delay * 1e9)
        state.withLock { $0.outbox.append((due, frame)) }
        wake.signal()
    }

    // MARK: - Server thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let now = ATTBearer.monotonicNow()
            let (stopping, socket, due, nextDue, hungUp) = state.withLock { state -> (Bool, ATTSocket?, [[UInt8]], Int64?, [ATTSocket]) in
                let ready = state.outbox.filter { $0.due <= now }.map(\.frame)
                state.outbox.removeAll { $0.due <= now }
                defer { state.hungUp = [] }
                return (state.stopping, state.connection?.socket, ready, state.outbox.map(\.due).min(), state.hungUp)
            }
            for old in hungUp { old.close() }
            if stopping { break }
            if let socket {
                for frame in due where (try? socket.send(frame)) != true {
                    dropConnection(socket)
                }
            }
            let wait = nextDue.map { Int32(clamping: ($0 - now + 999_999) / 1_000_000) } ?? -1
            var fds = [pollfd(fd: wake.readable, events: Int16(POLLIN), revents: 0)]
            if let socket { fds.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), wait) >= 0 || errno == EINTR else { break }
            if fds[0].revents != 0 { wake.drain() }
            guard let socket, fds.count > 1, fds[1].revents != 0 else { continue }
            while let received = try? socket.receive(into: &buffer), received.count > 0 {
                serve(Array(buffer[0..<received.count]), on: socket)
            }
            if fds[1].revents & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 { dropConnection(socket) }
        }
        state.withLock { state in
            defer { state.connection = nil; state.hungUp = [] }
            return state.hungUp + [state.connection?.socket].compactMap { $0 }
        }.forEach { $0.close() }
        wake.close()
    }

    private func dropConnection(_ socket: ATTSocket) {
        state.withLock { state in
            if state.connection?.socket === socket { state.connection = nil }
        }
        socket.close()
    }

    private func serve(_ frame: [UInt8], on socket: ATTSocket) {
        guard let opcode = frame.first else { return }
        let pdu = try? ATTPDU.decode(frame)
        let isResponse = ATTOpcode(rawValue: opcode)?.isResponse ?? false
        if isResponse {
            state.withLock { $0.record.answers.append(pdu ?? .other(opcode: opcode, parameters: Array(frame.dropFirst()))) }
            return
        }
        if opcode == ATTOpcode.handleValueConfirmation.rawValue {
            state.withLock { $0.record.confirmations += 1 }
            return
        }
        var pressNow = false
        let (answer, delay, hangUp) = state.withLock { state -> ([UInt8]?, Double, Bool) in
            guard state.connection?.socket === socket else { return (nil, 0, false) }
            if state.behaviour.pressedOnSubscription, case .writeRequest(let handle, let value)? = pdu, value.first.map({ $0 != 0 }) ?? false,
               handle == state.database.handles(service: button.service, characteristic: button.characteristic)?.configuration {
                pressNow = true
            }
            state.record.received.append(pdu ?? .other(opcode: opcode, parameters: Array(frame.dropFirst())))
            let isCommand = ATTOpcode.isCommand(opcode)
            if !isCommand { state.connection?.requests += 1 }
            if let limit = state.behaviour.disconnectAfterRequests, let count = state.connection?.requests, count >= limit {
                return (nil, 0, true)
            }
            guard let pdu else { return (isCommand ? nil : ATTPDU.errorResponse(request: opcode, handle: 0, code: .invalidPDU).encoded(), 0, false) }
            if state.behaviour.silentOpcodes.contains(opcode) { return (nil, 0, false) }
            if state.behaviour.silentOnceSubscribed, !isCommand, state.connection?.subscriptions.isEmpty == false { return (nil, 0, false) }
            if let code = state.behaviour.errors[opcode] {
                return (ATTPDU.errorResponse(request: opcode, handle: 0, code: code).encoded(), state.behaviour.responseDelay, false)
            }
            let answer = FakeGATTServer.answer(pdu, state: &state)
            return (answer?.encoded(), state.behaviour.responseDelay, false)
        }
        if hangUp {
            dropConnection(socket)
        } else if let answer {
            if pressNow { press() }
            enqueue(answer, delay: delay)
        }
    }
}
