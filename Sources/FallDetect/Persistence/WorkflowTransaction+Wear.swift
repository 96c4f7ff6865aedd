extension WorkflowTransaction {
    /// Keeps whether the device is worn (`WearMonitor`), so a restart remembers since when it
    /// has been off. `since` is when it came to rest, UTC nanoseconds.
    public func recordWear(isWorn: Bool, since: Int64, at now: Int64) throws {
        try recordCondition("notWorn", .notWorn, holds: !isWorn, since: since, at: now,
                            began: ("not_worn", "{\"since\":\"\(Self.isoTime(since))\"}"),
                            ended: ("worn", "{\"at\":\"\(Self.isoTime(now))\"}"))
    }

    /// Since when the device has been off, nil while it is worn.
    public func notWornSince() throws -> Int64? { try conditionSince("notWorn") }

    /// Queues the not-worn message to the wearer once per removal, when the device has been off
    /// for `afterSeconds`. Returns whether it did.
    @discardableResult
    public func remindNotWorn(afterSeconds: Double, at now: Int64) throws -> Bool {
        try remindCondition("notWorn", .notWorn, afterSeconds: afterSeconds, at: now)
    }

    /// The wearer, on every channel the contacts are reached by (the log always): the wearer is
    /// reached the way the device reaches anyone.
    func wearerRecipients(channelsOf contacts: [Contact]) throws -> [(String, String)] {
        guard let person = try workflow().person else { return [Self.localLog] }
        var channels: [String] = []
        for contact in contacts where contact.channel != Self.localLog.channel && !channels.contains(contact.channel) {
            channels.append(contact.channel)
        }
        return [Self.localLog] + channels.map { ($0, person.phone.e164) }
    }
}
