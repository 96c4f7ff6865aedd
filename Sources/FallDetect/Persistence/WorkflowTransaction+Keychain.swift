extension WorkflowTransaction {
    /// Keeps the keychain's battery level, and queues the low-battery message to the contacts when
    /// it falls under 20 %, at most once a day. Returns whether a message was queued.
    @discardableResult
    public func recordKeychainBattery(percent: Int, at now: Int64) throws -> Bool {
        try setSetting("batteryPercent", percent)
        guard percent < 20 else { return false }
        let last = try setting("lowBatteryWarnedAt", as: Int64.self)
        guard last.map({ now &- $0 >= 86_400_000_000_000 }) ?? true else { return false }
        try setSetting("lowBatteryWarnedAt", now)
        try enqueue(.lowBattery, at: now)
        return true
    }
}
