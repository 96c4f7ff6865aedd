extension WorkflowTransaction {
    /// Keeps whether the motion sensor delivers (a stall or a lost chip is a fault), so a restart
    /// remembers since when it has not. `since` is when samples stopped, UTC nanoseconds.
    public func recordSensorFault(isFaulty: Bool, since: Int64, at now: Int64) throws {
        try recordCondition("sensorFault", .sensorFault, holds: isFaulty, since: since, at: now,
                            began: ("sensor_fault", "{\"since\":\"\(Self.isoTime(since))\"}"),
                            ended: ("sensor_ok", "{\"at\":\"\(Self.isoTime(now))\"}"))
    }

    /// Since when the sensor has delivered nothing, nil while it works.
    public func sensorFaultSince() throws -> Int64? { try conditionSince("sensorFault") }

    /// Queues the sensor-fault message to the contacts once per fault, when it has lasted
    /// `afterSeconds`. Returns whether it did. Only called when the configuration asks for it: a
    /// fault is not an emergency, and most owners would rather fix it than worry their contacts.
    @discardableResult
    public func remindSensorFault(afterSeconds: Double, at now: Int64) throws -> Bool {
        try remindCondition("sensorFault", .sensorFault, afterSeconds: afterSeconds, at: now)
    }
}
