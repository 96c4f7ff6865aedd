import Dispatch
import FallDetect
import Synchronization

/// SMS through a GSM modem on a serial port, in text mode (see `TextModeSMS` for the character set
/// and for how long texts are split, and `SMSErrorClass` for which errors retry).
///
/// One attempt: AT, ATE0, AT+CMEE=1, AT+CMGF=1, AT+CNMI (status reports as +CDS), AT+CSQ and
/// AT+CREG? (AT+CEREG? when it says no; no signal or no network → retry), AT+CSCS, AT+CSMP asking for a status report, then
/// per part AT+CMGS="<number>", the "> " prompt, the text, Ctrl-Z, and "+CMGS: <ref>" with OK.
/// The message counts as delivered when every part's status report (+CDS with the same ref) says
/// so. Reports still outstanding after `reportWait` make the attempt return "retry after"
/// without resending: the next attempt looks at the reports that arrived meanwhile, and sends a
/// part again only after `resendAfter` without one.
///
/// The serial conversation is blocking, so it runs on a queue of its own, one message at a time,
/// never on the async callers' threads.
public final class GSMModemChannel: AlertChannel {
    public let name: String
    private let session: Mutex<ModemSession>
    private let queue: DispatchQueue
    /// Copied from the session after each attempt: the session's lock is held for a whole
    /// attempt, and the status must not wait for one.
    private let lastSignal = Mutex<Int?>(nil)

    /// The port is opened on the first attempt (and again after an I/O error), so a modem plugged
    /// in late still works.
    public init(name: String = "sms", devicePath: String, baudRate: Int = 115_200, settings: GSMModemSettings = GSMModemSettings(), seed: UInt64? = nil) {
        self.name = name
        session = Mutex(ModemSession(path: devicePath, baudRate: baudRate, settings: settings, seed: seed))
        queue = DispatchQueue(label: "detectord.modem.\(devicePath)")
    }

    public func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        await withCheckedContinuation { continuation in
            queue.async {
                let (outcome, signal) = self.session.withLock { ($0.deliver(message), $0.lastSignal) }
                self.lastSignal.withLock { $0 = signal }
                continuation.resume(returning: outcome)
            }
        }
    }

    /// The signal the modem reported at its last attempt, in dBm (3GPP 27.007 +CSQ: -113 + 2 ×
    /// rssi); nil before any attempt or when the modem did not know.
    public var signalDBm: Int? {
        guard let rssi = lastSignal.withLock({ $0 }), (0...31).contains(rssi) else { return nil }
        return -113 + 2 * rssi
    }

    /// Closes the serial port; the next attempt reopens it.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.session.withLock { $0.close() }
                continuation.resume()
            }
        }
    }
}
