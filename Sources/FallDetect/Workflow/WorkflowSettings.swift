/// The workflow's timings, with the product's defaults. Times in seconds, distances in metres.
public struct WorkflowSettings: Sendable, Hashable, Codable {
    /// How long the wearer has to say "I'm fine" after a detection.
    public var countdown: Double = 120
    /// The countdown after a manual SOS: a deliberate press needs less confirmation.
    public var manualCountdown: Double = 30
    /// Without any confirmed delivery for this long, the state becomes EMERGENCY_SENDING_FAILED.
    public var sendingFailureTimeout: Double = 15 * 60
    /// Location tracking lasts this long from the alert's delivery (EMERGENCY_SENT).
    public var trackingDuration: Double = 30 * 60
    /// A location update goes out after moving this far…
    public var trackingDistance: Double = 50
    /// …or after this long without one.
    public var trackingInterval: Double = 5 * 60
    /// How often an alarm raised from the keychain repeats its message until disarmed.
    public var keychainRepeatInterval: Double = 5 * 60

    public init() {}
}
