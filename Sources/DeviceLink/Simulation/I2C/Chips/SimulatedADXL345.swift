/// Placeholder until this chip's register-level model lands: it answers its identity only.
public final class SimulatedADXL345: SimulatedRegisterChip {
    public let model: IMUModel
    /// The next FIFO count read returns garbage (a corrupted transfer), once.
    public var corruptNextFIFOCount = false

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        super.init(powerOn: [model.identityRegister: model.identityValues[0]], motion: motion, clock: clock, rateFactor: rateFactor)
    }
}
