import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A GSM modem on the master side of a pseudo-terminal: the channel under test opens `devicePath`
/// (the slave) like a real /dev/ttyUSB2 and talks AT commands to it; a thread here answers them
/// the way a SIM800/Quectel-class modem does, with behaviour the test chooses.
final class ModemSimulator: Sendable {
    enum SubmitReply: Sendable, Equatable {
        case accept
        case cmsError(Int)
        case error
        /// "+CMGS: " with no readable number, then OK.
        case garbledReference
    }

    struct Behavior: Sendable {
        /// false: the modem never says anything (powered but hung).
        var answers = true
        var rssi = 20
        /// +CREG stat: 1 home, 5 roaming, 0/2/3 not registered.
        var registration = 1
        /// +CEREG stat, for an LTE module; nil answers AT+CEREG? with ERROR, as a 2G modem does.
        var epsRegistration: Int?
        /// Commands (upper case) met with silence, as by a module busy elsewhere.
        var unanswered: Set<String> = []
        var submitReply = SubmitReply.accept
        /// TP-Status of the +CDS sent right after each accepted SMS; nil sends none.
        var statusReport: Int? = 0
        /// Sends a line of binary noise before every reply.
        var noise = false
        /// The reply to set-up commands starting with this prefix is +CMS ERROR with this code.
        var setupCMSError: (prefix: String, code: Int)?
        /// Answers ERROR to AT+CMGS with a type of number, as a modem that does not take the
        /// optional parameter would.
        var refusesNumberType = false
        /// Restarts after the first SMS it accepts, as a SIM800 browned out by its transmit peak
        /// does: prints "RDY", and is back in PDU mode with echo on and the IRA character set.
        var restartsAfterFirstSubmit = false
    }

    struct Submitted: Sendable, Equatable {
        var address: String
        var charset: String
        var body: [UInt8]
        /// The type of number the message went with: the one given, else 145 for a number that
        /// starts with a plain '+' and 129 (unknown) for any other, the UCS-2 hex of '+' included,
        /// as a modem that does not decode the number before looking at it does.
        var numberType: Int
    }

    private struct State {
        var behavior: Behavior
        var commands: [String] = []
        var submitted: [Submitted] = []
        var echo = true
        var charset = "IRA"
        /// AT+CMGF=1; a restart goes back to PDU mode, where AT+CMGS with a number is +CMS ERROR 304.
        var textMode = false
        var restarted = false
        var pendingAddress: String?
        var pendingType: Int?
        var nextReference = 41
        var stop = false
    }

    let devicePath: String
    private let master: Int32
    /// Held open so the master never sees a hang-up between the channel's opens and closes.
    private let slave: Int32
    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)

    init(_ behavior: Behavior = Behavior()) throws {
        let pty = try PseudoTerminal()
        let path = pty.path
        let slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            let code = errno
            close(pty.master)
            throw SimulatorError(message: "cannot open \(path)", errno: code)
        }
        // A real serial line does not echo; a fresh pty slave does, until someone sets raw mode.
        var tio = termios()
        tcgetattr(slave, &tio)
        cfmakeraw(&tio)
        tcsetattr(slave, TCSANOW, &tio)
        master = pty.master
        self.slave = slave
        devicePath = path
        state = Mutex(State(behavior: behavior))
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func stop() {
        state.withLock { $0.stop = true }
        finished.wait()
        close(master)
        close(slave)
    }

    var commands: [String] { state.withLock { $0.commands } }
    var submitted: [Submitted] { state.withLock { $0.submitted } }

    func update(_ change: (inout Behavior) -> Void) {
        state.withLock { change(&$0.behavior) }
    }

    /// An unsolicited status report, as the network sends one late.
    func sendStatusReport(reference: Int, status: Int) {
        write("\r\n" + Self.statusReportLine(reference: reference, status: status) + "\r\n")
    }

    static func statusReportLine(reference: Int, status: Int) -> String {
        "+CDS: 6,\(reference),\"+33612345678\",145,\"26/01/01,12:00:30+04\",\"26/01/01,12:00:35+04\",\(status)"
    }

    private func run() {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !state.withLock({ $0.stop }) {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let n = read(master, &chunk, chunk.count)
            guard n > 0 else {
                usleep(10_000) // EIO while no slave is open, EAGAIN: nothing to do yet
                continue
            }
            input += chunk[..<n]
            process(&input)
        }
        finished.signal()
    }

    private func process(_ input: inout [UInt8]) {
        while true {
            if state.withLock({ $0.pendingAddress != nil }) {
                // Text entry after the prompt: everything up to Ctrl-Z (send) or ESC (abandon).
                guard let end = input.firstIndex(where: { $0 == 0x1A || $0 == 0x1B }) else { return }
                let body = Array(input[..<end])
                let send = input[end] == 0x1A
                input.removeSubrange(...end)
                submit(body, send: send)
            } else {
                guard let end = input.firstIndex(of: 0x0D) else { return }
                let line = String(decoding: input[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                input.removeSubrange(...end)
                if !line.isEmpty { command(line) }
            }
        }
    }

    private func command(_ line: String) {
        let (behavior, echo) = state.withLock { state in
            state.commands.append(line)
            return (state.behavior, state.echo)
        }
        guard behavior.answers, !behavior.unanswered.contains(line.uppercased()) else { return }
        if echo { write(line + "\r") }
        var reply = behavior.noise ? "\r\n\u{FF}\u{01}#~x+CM?GS\r\n" : ""
        let upper = line.uppercased()
        switch true {
        case behavior.setupCMSError.map({ upper.hasPrefix($0.prefix) }) ?? false:
            reply += "\r\n+CMS ERROR: \(behavior.setupCMSError?.code ?? 0)\r\n"
        case upper == "ATE0":
            state.withLock { $0.echo = false }
            reply += "\r\nOK\r\n"
        case upper == "AT+CSQ":
            reply += "\r\n+CSQ: \(behavior.rssi),\(behavior.rssi == 99 ? 99 : 0)\r\n\r\nOK\r\n"
        case upper == "AT+CREG?":
            reply += "\r\n+CREG: 0,\(behavior.registration)\r\n\r\nOK\r\n"
        case upper == "AT+CEREG?":
            reply += behavior.epsRegistration.map { "\r\n+CEREG: 0,\($0)\r\n\r\nOK\r\n" } ?? "\r\nERROR\r\n"
        case upper.hasPrefix("AT+CSCS=\""):
            let charset = String(line.dropFirst(9).dropLast())
            state.withLock { $0.charset = charset }
            reply += "\r\nOK\r\n"
        case upper == "AT+CMGF=1":
            state.withLock { $0.textMode = true }
            reply += "\r\nOK\r\n"
        case upper.hasPrefix("AT+CMGS=\"") && !state.withLock({ $0.textMode }):
            reply += "\r\n+CMS ERROR: 304\r\n"
        case upper.hasPrefix("AT+CMGS=\""):
            // AT+CMGS="<da>"[,<toda>]: 129 (unknown) or 145 (international) only.
            let parameters = line.dropFirst(9)
            guard let close = parameters.firstIndex(of: "\""),
                  ["", ",129", ",145"].contains(parameters[parameters.index(after: close)...])
            else {
                reply += "\r\n+CMS ERROR: 304\r\n"
                break
            }
            let type = parameters[parameters.index(after: close)...].dropFirst()
            if !type.isEmpty, state.withLock({ $0.behavior.refusesNumberType }) {
                reply += "\r\nERROR\r\n"
                break
            }
            state.withLock {
                $0.pendingAddress = String(parameters[..<close])
                $0.pendingType = Int(type)
            }
            reply += "\r\n> "
        case upper.hasPrefix("AT"):
            reply += "\r\nOK\r\n"
        default:
            reply += "\r\nERROR\r\n"
        }
        write(reply)
    }

    private func submit(_ body: [UInt8], send: Bool) {
        let (behavior, reference): (Behavior, Int) = state.withLock { state in
            let address = state.pendingAddress ?? ""
            let type = state.pendingType ?? (address.hasPrefix("+") ? 145 : 129)
            state.pendingAddress = nil
            state.pendingType = nil
            let reference = state.nextReference
            if send {
                state.submitted.append(Submitted(address: address, charset: state.charset, body: body, numberType: type))
                if state.behavior.submitReply == .accept { state.nextReference += 1 }
            }
            return (state.behavior, reference)
        }
        guard send else {
            write("\r\nOK\r\n")
            return
        }
        var reply = behavior.noise ? "\r\n\u{FF}\u{01}#~x+CM?GS\r\n" : ""
        switch behavior.submitReply {
        case .accept:
            reply += "\r\n+CMGS: \(reference)\r\n\r\nOK\r\n"
            if let status = behavior.statusReport {
                reply += "\r\n" + Self.statusReportLine(reference: reference, status: status) + "\r\n"
            }
            let restart = behavior.restartsAfterFirstSubmit && state.withLock { state in
                defer { state.restarted = true }
                return !state.restarted
            }
            if restart {
                reply += "\r\nRDY\r\n\r\n+CFUN: 1\r\n"
                state.withLock { state in
                    state.echo = true
                    state.charset = "IRA"
                    state.textMode = false
                }
            }
        case .cmsError(let code):
            reply += "\r\n+CMS ERROR: \(code)\r\n"
        case .error:
            reply += "\r\nERROR\r\n"
        case .garbledReference:
            reply += "\r\n+CMGS: #?\r\n\r\nOK\r\n"
        }
        write(reply)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        // "\u{FF}\u{01}" stands for raw noise bytes, not their UTF-8 encoding.
        if text.contains("\u{FF}") { bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else { usleep(1000) }
        }
    }
}
