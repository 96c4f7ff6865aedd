/// A kernel driver bound to a peripheral: a device-tree overlay such as `mpu6050` or
/// `i2c-rtc,ds3231` makes the kernel instantiate the chip and bind its driver. i2c-dev's
/// `I2C_RDWR` does not stop us from addressing such a chip, but our transfers would interleave
/// with the driver's, which configures the chip its own way and may power it down.
public struct I2CClaim: Sendable, Equatable, CustomStringConvertible {
    /// The driver's name, as under `/sys/bus/i2c/drivers` (`inv-mpu6050-i2c`, `rtc-ds1307`).
    public var driver: String
    /// The kernel's name for the peripheral, bus and address: `1-0068`.
    public var device: String

    public init(driver: String, device: String) {
        self.driver = driver
        self.device = device
    }

    /// What to do about it, for a log line or the probe.
    public var description: String {
        "the kernel's \(driver) driver has bound it (a dtoverlay in config.txt?); remove the overlay, "
            + "or unbind it: echo \(device) | sudo tee /sys/bus/i2c/drivers/\(driver)/unbind"
    }
}
