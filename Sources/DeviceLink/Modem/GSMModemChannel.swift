import Dispatch
import FallDetect
import Synchronization

/// SMS through a GSM modem on a serial port, in text mode (see `TextModeSMS` for the character set
/// and for how long texts are split, and `SMSErrorClass` for which errors retry).
///
/// One attempt: AT, ATE0, AT+CMEE=1, AT+CMGF=1, AT+CNMI (status reports as +CDS), AT+CSQ and
/// AT+CREG? (no signal or no network → retry), AT+CSCS, AT+CSMP asking for a status report, then
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
                continuation.resume(returning: self.session.withLock { $0.deliver(message) })
            }
        }
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
