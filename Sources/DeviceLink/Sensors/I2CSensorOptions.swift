import FallDetect

/// What the live I2C source is asked to read and how.
public struct I2CSensorOptions: Sendable {
    /// `/dev/i2c-1` on a Raspberry Pi.
    public var busPath: String
    /// The chip's 7-bit address; nil scans the addresses IMUs answer at.
    public var address: UInt8?
    /// The chip family; nil identifies it by its identity register.
    public var family: IMUFamily?
    public var request: IMURequest
    /// The chip's axes onto the body frame (identity when the pipeline estimates the mounting).
    public var axes: AxisMapping
    /// SCHED_FIFO priority for the sensor thread (1–99); nil keeps the normal scheduler.
    public var realtimePriority: Int32?
    /// Waits between attempts to find a lost chip: doubling from the first to the last.
    public var firstRetrySeconds: Double
    public var lastRetrySeconds: Double
    /// Ends the source (as a finished replay) this long after it starts, on its clock: for a
    /// simulated chip measuring a recording once.
    public var endAfterSeconds: Double?
    /// Errors that a setting or the system must fix (no such bus, no permission, a different chip
    /// than configured) are faults looked past like a lost chip, tried again with the same
    /// backoff, instead of ending the source: the daemon's keychain, alarm and page then stay up
    /// and say what is wrong, where a restart every few seconds would drop them. `record` and
    /// `probe` leave it off and stop with the error.
    public var keepsTrying: Bool

    public init(busPath: String, address: UInt8? = nil, family: IMUFamily? = nil, request: IMURequest = IMURequest(),
                axes: AxisMapping = .identity, realtimePriority: Int32? = nil, firstRetrySeconds: Double = 0.1, lastRetrySeconds: Double = 5,
                keepsTrying: Bool = false) {
        self.busPath = busPath
        self.address = address
        self.family = family
        self.request = request
        self.axes = axes
        self.realtimePriority = realtimePriority
        self.firstRetrySeconds = firstRetrySeconds
        self.lastRetrySeconds = lastRetrySeconds
        self.keepsTrying = keepsTrying
    }

    /// Where to look: the configured address, or the family's addresses, or every IMU address.
    var addresses: [UInt8] {
        if let address { return [address] }
        if let family, let model = IMUModel.first(of: family) { return model.addresses }
        return IMUIdentity.addresses
    }
}
