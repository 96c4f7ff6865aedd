/// What the workflow asks the outside world to do; carried out by the daemon, the drill or a test.
public enum WorkflowAction: Sendable, Equatable {
    case transition(from: EmergencyState, to: EmergencyState, reason: String)
    case alarm(on: Bool)
    case keychainBeep(on: Bool)
    /// Send to every configured contact and channel.
    case send(MessageKind)
    case tracking(on: Bool)
    case showSurvey
    /// The input needs the PIN first; nothing else happened.
    case pinRequired
    /// Worth telling the wearer, e.g. no GNSS source configured.
    case warning(String)
    /// The input does not apply now; the reason says why.
    case ignored(String)
    /// A step of the emergency the duress PIN hides: stored, queued and logged as the action is,
    /// never shown on the device (its page, event stream, API answers, history and metrics).
    indirect case concealed(WorkflowAction)

    /// The action itself, concealed or not.
    public var revealed: WorkflowAction {
        if case .concealed(let action) = self { return action.revealed }
        return self
    }

    public var isConcealed: Bool {
        if case .concealed = self { return true }
        return false
    }
}
