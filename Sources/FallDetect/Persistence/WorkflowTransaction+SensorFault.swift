extension WorkflowTransaction {
    /// Keeps whether the motion sensor delivers (a stall or a lost chip is a fault), so a restart
    /// remembers since when it has not. `since` is when samples stopped, UTC nanoseconds.
    public func recordSensorFault(isFaulty: Bool, since: Int64, at now: Int64) throws {
        if isFaulty {
            guard try setting("sensorFaultSince", as: Int64.self) == nil else { return }
            try setSetting("sensorFaultSince", since)
            try note("sensor_fault", "{\"since\":\"\(Self.isoTime(since))\"}", at: now)
        } else {
            guard try setting("sensorFaultSince", as: Int64.self) != nil else { return }
            try db.execute(sql: "DELETE FROM setting WHERE key IN ('sensorFaultSince', 'sensorFaultTold')")
            try note("sensor_ok", "{\"at\":\"\(Self.isoTime(now))\"}", at: now)
        }
    }

    /// Since when the sensor has delivered nothing, nil while it works.
    public func sensorFaultSince() throws -> Int64? { try setting("sensorFaultSince", as: Int64.self) }

    /// Queues the sensor-fault message to the contacts once per fault, when it has lasted
    /// `afterSeconds`. Returns whether it did. Only called when the configuration asks for it: a
    /// fault is not an emergency, and most owners would rather fix it than worry their contacts.
    @discardableResult
    public func remindSensorFault(afterSeconds: Double, at now: Int64) throws -> Bool {
        guard let since = try sensorFaultSince(), try setting("sensorFaultTold", as: Bool.self) != true,
            Double(now &- since) >= afterSeconds * 1e9
        else { return false }
        try setSetting("sensorFaultTold", true)
        try enqueue(.sensorFault, at: now)
        return true
    }
}
