/// One line of a drill script: at a virtual time, do one thing.
public struct DrillStep: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case start(name: String, phone: String, country: String)
        case contact(name: String, phone: String, pin: String?, channel: String?)
        case setPIN(pin: String, duressPIN: String?)
        case detect(EmergencyTrigger)
        case sos(fromKeychain: Bool)
        case imFine, quit, call112, cancel, resume, crash, advance
        /// A fall's follow-up stage reports (`up_again`: recovered; `stayed_down`).
        case followUp(FollowUpOutcome.Kind)
        case survey(SurveyAnswer)
        case disarm(pin: String)
        case position(latitude: Double, longitude: Double, accuracy: Double?, speed: Double?)
        case network(up: Bool)
        case battery(percent: Int)
    }

    /// Seconds from the start of the drill.
    public var at: Double
    public var action: Action
    /// 1-based line in the script, for messages.
    public var line: Int
}
