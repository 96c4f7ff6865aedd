extension WorkflowTransaction {
    /// Keeps whether the keychain's link is up, so a restart remembers since when it has been
    /// lost. `since` is when it dropped, UTC nanoseconds.
    public func recordKeychainLink(connected: Bool, since: Int64, at now: Int64) throws {
        if connected {
            guard try keychainLostSince() != nil else { return }
            try db.execute(sql: "DELETE FROM setting WHERE key IN ('keychainLostSince', 'keychainLostTold')")
            try note("keychain", "link back", at: now)
        } else {
            guard try keychainLostSince() == nil else { return }
            try setSetting("keychainLostSince", since)
            try note("keychain", "link lost since \(Self.isoTime(since))", at: now)
        }
    }

    /// Since when the keychain has been out of reach, nil while connected.
    public func keychainLostSince() throws -> Int64? { try setting("keychainLostSince", as: Int64.self) }

    /// Queues the keychain-lost message to the wearer once per loss, when the link has been down
    /// for `afterSeconds`. Returns whether it did.
    @discardableResult
    public func remindKeychainLost(afterSeconds: Double, at now: Int64) throws -> Bool {
        guard let since = try keychainLostSince(), try setting("keychainLostTold", as: Bool.self) != true,
              Double(now &- since) >= afterSeconds * 1e9
        else { return false }
        try setSetting("keychainLostTold", true)
        try enqueue(.keychainLost, at: now)
        return true
    }
}
