/// A breakout board on a simulated bus: the chip model of a family at its usual address, wired
/// to the motion it measures. `sensor.source = "simulated"` and the tests build buses from it.
public enum SimulatedIMUBoard {
    /// Attaches the chip(s) of `model` to `bus` (a pair attaches both); returns the address the
    /// driver is given.
    @discardableResult
    public static func attach(
        _ model: IMUModel, to bus: SimulatedI2CBus, address: UInt8? = nil, motion: any SimulatedMotion, rateFactor: Double = 1
    ) -> UInt8 {
        let at = address ?? model.addresses[0]
        let clock = bus.clock
        switch model.family {
        case .mpu6050, .mpu6500:
            bus.attach(SimulatedMPU6050(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .icm20948:
            bus.attach(SimulatedICM20948(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .lsm6ds3:
            bus.attach(SimulatedLSM6DS3(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .lsm6dso:
            bus.attach(SimulatedLSM6DSO(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .bmi160:
            bus.attach(SimulatedBMI160(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .adxl345, .adxl375:
            bus.attach(SimulatedADXL345(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .itg3200:
            bus.attach(SimulatedITG3200(model: model, motion: motion, clock: clock, rateFactor: rateFactor), at: at)
        case .adxl345ITG3200:
            let adxl = IMUModel.first(of: .adxl345)!
            let itg = IMUModel.first(of: .itg3200)!
            bus.attach(SimulatedADXL345(model: adxl, motion: motion, clock: clock, rateFactor: rateFactor), at: address ?? adxl.addresses[0])
            bus.attach(SimulatedITG3200(model: itg, motion: motion, clock: clock, rateFactor: rateFactor), at: itg.addresses[0])
            return address ?? adxl.addresses[0]
        }
        return at
    }
}
