/// One IMU chip on one bus: reset and identify, configure range, rate and filter, start, drain,
/// stop. The streamer (`IMUStreamer`) owns timing; a driver only turns register traffic into
/// scaled readings, oldest first. Every driver is tested only through its register-level
/// simulator (Simulation/I2C), which implements the same `I2CBus`.
///
/// Drivers are used by one thread at a time (the bus's sensor thread).
public protocol IMUDriver: AnyObject {
    var model: IMUModel { get }
    var bus: any I2CBus { get }
    var address: UInt8 { get }
    /// What `configure` chose; nil before.
    var configuration: IMUConfiguration? { get }

    /// Resets the chip (a soft reset, so a chip left running by a crashed daemon starts clean),
    /// waits for it and checks its identity register.
    func reset() throws(IMUError)
    /// Applies the nearest settings the chip has to `request` and returns them. The chip does
    /// not measure until `start`.
    func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration
    /// Starts measuring and, when configured, the FIFO (empty).
    func start() throws(IMUError)
    /// Appends every whole sample the chip holds now (the FIFO's records, or the data registers
    /// when data-ready is set) and says whether samples were lost before them.
    func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport
    /// Stops measuring (standby), so the chip draws little after the daemon exits.
    func stop() throws(IMUError)
}
