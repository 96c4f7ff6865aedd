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
    /// for `afterSeconds`. Returns whether it did. Never during an emergency: a device lying
    /// still then is as likely a wearer who cannot move, and "your device seems to be off" on
    /// every contact's channel mid-alarm could have the alarm taken for a false one. Once the
    /// emergency is over (ended, or protection resumed), a device still off is told of as before.
    @discardableResult
    public func remindNotWorn(afterSeconds: Double, at now: Int64) throws -> Bool {
        guard try workflow().state.isSettled else { return false }
        return try remindCondition("notWorn", .notWorn, afterSeconds: afterSeconds, at: now)
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
