extension WorkflowTransaction {
    /// Checks an entered PIN under the shared lockout and applies the verdict: the disarm path
    /// of the daemon's API (and of anything else that takes a PIN from a person). A lockout is
    /// reported as an ignored action with the seconds left, and the wrong try is remembered.
    public func disarm(pin: String, at now: Int64) throws -> [WorkflowAction] {
        guard let hash = try setting("pinHash", as: String.self) else {
            throw FallDetectError(.invalidArgument, "no PIN is set", field: "pin")
        }
        // Nothing to disarm: no PIN is checked, so wrong tries here cannot keep the wearer locked
        // out of the next real alarm.
        if try workflow().displayedState == .noEmergency { return [.ignored("nothing to disarm")] }
        var lock = try setting("pinLock", as: PINLock.self) ?? PINLock()
        let outcome = lock.check(pin, pinHash: hash, duressHash: try setting("duressHash", as: String.self), at: now)
        try setSetting("pinLock", lock)
        switch outcome {
        case .verdict(let verdict):
            return try apply(.disarm(verdict), at: now)
        case .lockedOut(let seconds):
            let action = WorkflowAction.ignored("PIN entry locked for \(Int(seconds.rounded(.up))) s after wrong tries")
            try journal(action, at: now)
            return [action]
        }
    }
}
