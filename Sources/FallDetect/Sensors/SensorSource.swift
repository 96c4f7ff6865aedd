/// Where the live daemon's IMU samples come from: an I2C chip on a Pi (DeviceLink) or a recording
/// replayed in real time (`ReplaySensorSource`). The daemon runs `run` on a thread of its own; the
/// source pushes samples into the ring in batches, stamped on `MonotonicTime`. A chip never waits
/// for the detector (a full ring drops and counts, as the chip's FIFO would); a replay does, since
/// its recording has every sample to give. Simulators implement the same protocol, so
/// everything after the ring is the code a device runs.
public protocol SensorSource: AnyObject, Sendable {
    /// For status and logs: "replay forward-fall.detrec", "MPU-6050 on /dev/i2c-1 at 0x68".
    var summary: String { get }
    /// Samples per second the source delivers (the detector's filters are set for it).
    var sampleRate: Double { get }
    /// The accelerometer's full scale in g (saturation checks).
    var accelerometerRange: Float { get }

    /// Pushes samples into `producer` until `shouldStop()` returns true (checked at least every
    /// 50 ms) or the source has nothing more; `batchWritten` is called after each batch so the
    /// consumer can wake. Throws when the sensor cannot be used at all.
    func run(
        into producer: borrowing SampleRing.Producer, batchWritten: () -> Void, shouldStop: () -> Bool
    ) throws(FallDetectError) -> SensorSourceEnd

    /// The source's own account of the sensor (a chip's drift, gaps, faults); nil for sources
    /// with nothing to add, such as a replay. Read from any thread.
    var condition: SensorCondition? { get }
}

extension SensorSource {
    public var condition: SensorCondition? { nil }
}
