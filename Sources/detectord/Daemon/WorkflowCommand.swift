import FallDetect

/// What reaches the workflow service, one at a time, in order: the person's actions from the API
/// (with a reply), what the detectors concluded, positions and the passing of time.
enum WorkflowCommand: Sendable {
    case input(WorkflowInput, origin: String, reply: (@Sendable (Result<[WorkflowAction], FallDetectError>) -> Void)?)
    /// A PIN typed on the page or given to `ctl disarm`: checked (slowly, with the lockout) inside
    /// the same transaction as its effect.
    case disarm(pin: String, reply: @Sendable (Result<[WorkflowAction], FallDetectError>) -> Void)
    /// A change from the page's set-up or settings, with the PIN when one is set: checked under
    /// the shared lockout inside the same transaction as the change.
    case setup(SetupChange, pin: String?, reply: @Sendable (Result<SetupOutcome, FallDetectError>) -> Void)
    /// A line for the journal (a detection's evidence, written just before its countdown).
    case note(type: String, payload: String)
    case position(GNSSFix)
    /// The keychain's battery level: kept, and told to the contacts when low (once a day).
    case keychainBattery(percent: Int)
    /// A press pattern from the keychain, decided by `policy` against the state at that moment
    /// (inside the same transaction as its effect). `receivedAt` is CLOCK_MONOTONIC ns of the
    /// notification, for the press-to-decision latency.
    case keychainPress(KeychainPress, policy: KeychainPressPolicy, receivedAt: Int64?)
    /// The keychain's link came back (`connected`) or dropped at `sinceMonotonic`.
    case keychainLink(connected: Bool, sinceMonotonic: Int64)
    /// The device was taken off (resting since `sinceMonotonic`) or put on again.
    case wear(isWorn: Bool, sinceMonotonic: Int64)
    /// The motion sensor stopped delivering (since `sinceMonotonic`) or delivers again.
    /// These times are CLOCK_MONOTONIC ns: the service makes them wall times with its own clock,
    /// after any step of it that it applies. A wall time read on another thread could be from
    /// before a step the store was just moved by, and a fault would seem days old at once.
    case sensorFault(isFaulty: Bool, sinceMonotonic: Int64)
    case tick
}
