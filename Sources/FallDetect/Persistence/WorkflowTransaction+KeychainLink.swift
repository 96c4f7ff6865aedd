extension WorkflowTransaction {
    /// Keeps whether the keychain's link is up, so a restart remembers since when it has been
    /// lost. `since` is when it dropped, UTC nanoseconds.
    public func recordKeychainLink(connected: Bool, since: Int64, at now: Int64) throws {
        try recordCondition("keychainLost", .keychainLost, holds: !connected, since: since, at: now,
                            began: ("keychain", "link lost since \(Self.isoTime(since))"), ended: ("keychain", "link back"))
    }

    /// Since when the keychain has been out of reach, nil while connected.
    public func keychainLostSince() throws -> Int64? { try conditionSince("keychainLost") }

    /// Queues the keychain-lost message to the wearer once per loss, when the link has been down
    /// for `afterSeconds`. Returns whether it did.
    @discardableResult
    public func remindKeychainLost(afterSeconds: Double, at now: Int64) throws -> Bool {
        try remindCondition("keychainLost", .keychainLost, afterSeconds: afterSeconds, at: now)
    }
}
