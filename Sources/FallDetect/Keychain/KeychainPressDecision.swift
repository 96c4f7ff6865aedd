/// What a press pattern does now, and why (for the event log).
public struct KeychainPressDecision: Sendable, Equatable {
    /// The workflow input to apply; nil when the press does nothing now.
    public var input: WorkflowInput?
    public var reason: String

    public init(input: WorkflowInput?, reason: String) {
        self.input = input
        self.reason = reason
    }
}
