import CSystemd
import Foundation

/// Talks to systemd through libsystemd's sd_notify: readiness for `Type=notify`, a status line
/// for `systemctl status`, the watchdog ping, and stopping. Outside systemd (no NOTIFY_SOCKET)
/// every call does nothing, so the daemon runs the same by hand.
struct SystemdNotifier: Sendable {
    /// True when started by systemd with a notify socket.
    var isActive: Bool { ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] != nil }

    /// The unit's WatchdogSec, when the watchdog is on for this process.
    var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    func status(_ text: String) { send("STATUS=\(text)") }
    func watchdog() { send("WATCHDOG=1") }
    func stopping() { send("STOPPING=1") }

    private func send(_ text: String) {
        guard isActive else { return }
        _ = text.withCString { sd_notify(0, $0) }
    }
}
