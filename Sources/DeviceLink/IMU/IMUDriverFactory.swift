/// Makes the driver for a model: the one place that maps families to driver types.
public enum IMUDriverFactory {
    public static func make(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) -> any IMUDriver {
        switch model.family {
        case .mpu6050, .mpu6500: MPU6050Driver(model: model, bus: bus, address: address, clock: clock)
        case .icm20948: ICM20948Driver(model: model, bus: bus, address: address, clock: clock)
        case .lsm6ds3: LSM6DS3Driver(model: model, bus: bus, address: address, clock: clock)
        case .lsm6dso: LSM6DSODriver(model: model, bus: bus, address: address, clock: clock)
        case .bmi160: BMI160Driver(model: model, bus: bus, address: address, clock: clock)
        case .adxl345, .adxl375: ADXL345Driver(model: model, bus: bus, address: address, clock: clock)
        case .itg3200: ITG3200Driver(model: model, bus: bus, address: address, clock: clock)
        case .adxl345ITG3200: PairedIMUDriver(model: model, bus: bus, address: address, clock: clock)
        }
    }
}
