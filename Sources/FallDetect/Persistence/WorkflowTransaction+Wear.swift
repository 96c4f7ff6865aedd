extension WorkflowTransaction {
    /// Keeps whether the device is worn (`WearMonitor`), so a restart remembers since when it
    /// has been off. `since` is when it came to rest, UTC nanoseconds.
    public func recordWear(isWorn: Bool, since: Int64, at now: Int64) throws {
        if isWorn {
            guard try setting("notWornSince", as: Int64.self) != nil else { return }
            try db.execute(sql: "DELETE FROM setting WHERE key IN ('notWornSince', 'notWornTold')")
            try note("worn", "{\"at\":\"\(Self.isoTime(now))\"}", at: now)
        } else {
            guard try setting("notWornSince", as: Int64.self) == nil else { return }
            try setSetting("notWornSince", since)
            try note("not_worn", "{\"since\":\"\(Self.isoTime(since))\"}", at: now)
        }
    }

    /// Since when the device has been off, nil while it is worn.
    public func notWornSince() throws -> Int64? { try setting("notWornSince", as: Int64.self) }

    /// Queues the not-worn message to the wearer once per removal, when the device has been off
    /// for `afterSeconds`. Returns whether it did.
    @discardableResult
    public func remindNotWorn(afterSeconds: Double, at now: Int64) throws -> Bool {
        guard let since = try notWornSince(), try setting("notWornTold", as: Bool.self) != true,
            Double(now &- since) >= afterSeconds * 1e9
        else { return false }
        try setSetting("notWornTold", true)
        try enqueue(.notWorn, at: now)
        return true
    }

    /// The wearer, on every channel the contacts are reached by (the log always): the wearer is
    /// reached the way the device reaches anyone.
    func wearerRecipients() throws -> [(String, String)] {
        guard let person = try workflow().person else { return [Self.localLog] }
        var channels: [String] = []
        for contact in try contacts() where contact.channel != Self.localLog.channel && !channels.contains(contact.channel) {
            channels.append(contact.channel)
        }
        return [Self.localLog] + channels.map { ($0, person.phone.e164) }
    }
}
