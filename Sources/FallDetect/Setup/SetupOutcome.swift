/// What became of a `SetupChange`. A wrong PIN is an outcome, not an error, so that the try it
/// cost is committed with the lockout it may start.
public enum SetupOutcome: Sendable, Equatable {
    /// Made; the workflow actions it caused (a test alarm's countdown, protection starting).
    case done([WorkflowAction])
    /// Set-up is complete (a PIN is set) and no PIN was given.
    case pinNeeded
    case wrongPIN
    /// The keypad is locked after wrong tries: no PIN is checked for this many seconds.
    case lockedOut(seconds: Double)
}
