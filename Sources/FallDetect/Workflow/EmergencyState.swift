/// Where an emergency stands. The raw values are the names the product and its API use.
public enum EmergencyState: String, Sendable, CaseIterable, Codable {
    case noEmergency = "NO_EMERGENCY"
    /// A detection or SOS happened; the alarm sounds and the wearer can still say "I'm fine".
    case alertCountdown = "ALERT_COUNTDOWN"
    /// The emergency is going out to every channel; nothing confirmed yet.
    case emergencySending = "EMERGENCY_SENDING"
    /// At least one channel confirmed delivery.
    case emergencySent = "EMERGENCY_SENT"
    /// Nothing confirmed for the failure timeout; retries go on.
    case emergencySendingFailed = "EMERGENCY_SENDING_FAILED"
    /// Tracking finished or the emergency was cancelled; waiting to resume protection.
    case emergencyEnded = "EMERGENCY_ENDED"

    /// States in which something may already have reached a contact.
    public var hasSent: Bool {
        self == .emergencySending || self == .emergencySent || self == .emergencySendingFailed
    }

    /// No emergency under way: none, or one that has ended.
    public var isSettled: Bool { self == .noEmergency || self == .emergencyEnded }
}
