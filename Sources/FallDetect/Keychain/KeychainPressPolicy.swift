/// What a press pattern means, by the workflow's state. Safe by default:
/// - the SOS pattern (single) raises an SOS with the workflow's shorter SOS countdown, also
///   during a countdown, where it confirms the emergency;
/// - "I'm fine" from the keychain is off unless a pattern is chosen, and then it applies only to
///   a countdown started by a detection: a panic button that can cancel is a risk under duress,
///   and a countdown the person started on purpose is not the button's to cancel;
/// - after sending, no press disarms: only the PIN does; once the emergency ended, the SOS
///   pattern starts a new one;
/// - more presses than the SOS pattern count as SOS (unless they are the "I'm fine" pattern):
///   someone in trouble presses again and again, and a double SOS pressed three times is meant.
public struct KeychainPressPolicy: Sendable, Equatable {
    public var sos: KeychainPress
    public var imFine: KeychainPress?

    public init(sos: KeychainPress = .single, imFine: KeychainPress? = nil) throws(KeychainPolicyError) {
        guard sos != imFine else { throw .samePattern(sos) }
        self.sos = sos
        self.imFine = imFine
    }

    /// Whether any pattern longer than a single press means something: when none does, a single
    /// press is decided at once instead of after the pattern window.
    public var usesLongerPatterns: Bool { sos != .single || (imFine.map { $0 != .single } ?? false) }

    /// The SOS pattern, or one with more presses that is not "I'm fine".
    public func meansSOS(_ press: KeychainPress) -> Bool {
        press == sos || (press != imFine && press.presses > sos.presses)
    }

    public func decide(_ press: KeychainPress, state: EmergencyState, trigger: EmergencyTrigger?) -> KeychainPressDecision {
        let name = "\(press.rawValue) press"
        switch state {
        case .noEmergency:
            if meansSOS(press) { return KeychainPressDecision(input: .sos(fromKeychain: true), reason: "\(name): SOS") }
            return KeychainPressDecision(input: nil, reason: "\(name) has no meaning without an alarm (SOS is a \(sos.rawValue) press)")
        case .alertCountdown:
            if press == imFine {
                guard let trigger, trigger != .manual else {
                    return KeychainPressDecision(input: nil, reason: "\(name) does not cancel a countdown started by an SOS")
                }
                return KeychainPressDecision(input: .imFine, reason: "\(name): I'm fine")
            }
            if meansSOS(press) { return KeychainPressDecision(input: .sos(fromKeychain: true), reason: "\(name) during the countdown: SOS confirmed") }
            return KeychainPressDecision(input: nil, reason: "\(name) has no meaning during the countdown")
        case .emergencyEnded:
            // The last emergency is over; nobody may ever answer its survey. An SOS then is a
            // new emergency, or the button would protect nobody until someone pressed resume.
            if meansSOS(press) { return KeychainPressDecision(input: .sos(fromKeychain: true), reason: "\(name): SOS, a new emergency after the last one ended") }
            return KeychainPressDecision(input: nil, reason: "\(name) ignored: the last emergency ended (SOS is a \(sos.rawValue) press)")
        default:
            return KeychainPressDecision(input: nil, reason: "\(name) ignored: the alarm is \(state.rawValue), only the PIN disarms it")
        }
    }
}
