/// SisFall's belt unit: an ADXL345 accelerometer and an ITG-3200 gyroscope on one bus, read as
/// one IMU on one time base. Both run at the same rate. The ADXL345's FIFO sets the samples of a
/// drain; the ITG-3200 has no FIFO, so its newest rate is read once per drain and each sample of
/// the drain gets the rate interpolated linearly between the previous drain's reading and this
/// one. Drained every sample (watermark 1, or polled) that is exact; at a 20 ms watermark it
/// smooths the gyroscope over 20 ms, well inside what the detectors' fusion low-passes anyway.
public final class PairedIMUDriver: IMUDriver {
    public let model: IMUModel
    public let bus: any I2CBus
    /// The ADXL345's address; the ITG-3200 is looked for at 0x68, then 0x69.
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let accelerometer: ADXL345Driver
    private var gyroscope: ITG3200Driver?
    private let clock: any IMUClock
    private var previousRate: SIMD3<Float>?
    private var accelerations: [IMUReading] = []

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        let adxl = IMUModel.first(of: .adxl345) ?? model
        accelerometer = ADXL345Driver(model: adxl, bus: bus, address: address, clock: clock)
    }

    public func reset() throws(IMUError) {
        configuration = nil
        previousRate = nil
        try accelerometer.reset()
        guard let itg = IMUModel.first(of: .itg3200) else {
            throw .unsupported(chip: model.name, setting: "gyroscope", reason: "no ITG-3200 model")
        }
        var found: ITG3200Driver?
        var claimed: (UInt8, I2CClaim)?
        for candidate in itg.addresses {
            // A bound address (an RTC's driver at 0x68) is neither reset nor read.
            if let claim = bus.claim(address: candidate) {
                claimed = claimed ?? (candidate, claim)
                continue
            }
            let driver = ITG3200Driver(model: itg, bus: bus, address: candidate, clock: clock)
            do {
                try driver.reset()
                found = driver
                break
            } catch {
                if case .bus(let busError) = error, busError.isDeviceGone { continue }
                if case .wrongIdentity = error { continue }
                throw error
            }
        }
        guard let found else {
            let chip = "ITG-3200 (the pair's gyroscope)"
            if let (address, claim) = claimed {
                throw .claimed(chip: chip, bus: bus.name, address: address, claim: claim, unanswered: itg.addresses.filter { $0 != address }, besides: nil)
            }
            throw .absent(chip: chip, bus: bus.name, addresses: itg.addresses)
        }
        gyroscope = found
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard let gyroscope else { throw notReady("configured before reset") }
        let accel = try accelerometer.configure(request)
        // The gyroscope at the accelerometer's rate, as near as its 1 kHz divider allows.
        var gyroRequest = request
        gyroRequest.rateHz = min(1000, accel.rateHz)
        let gyro = try gyroscope.configure(gyroRequest)
        let chosen = IMUConfiguration(
            model: model.name, rateHz: accel.rateHz, accelerometerRange: accel.accelerometerRange, gyroscopeRange: gyro.gyroscopeRange,
            accelerometerLSBPerG: accel.accelerometerLSBPerG, gyroscopeLSBPerDPS: gyro.gyroscopeLSBPerDPS,
            lowPassHz: min(accel.lowPassHz, gyro.lowPassHz), fifoCapacity: accel.fifoCapacity, watermark: accel.watermark)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let gyroscope else { throw notReady("started before reset") }
        try gyroscope.start()
        try accelerometer.start()
        previousRate = nil
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let gyroscope else { throw notReady("drained before reset") }
        accelerations.removeAll(keepingCapacity: true)
        let report = try accelerometer.drain(into: &accelerations)
        if report.overflowed {
            previousRate = nil
            return report
        }
        guard !accelerations.isEmpty else { return report }
        let rate = try gyroscope.latestRate()
        let from = previousRate ?? rate
        let n = Float(accelerations.count)
        for (index, entry) in accelerations.enumerated() {
            let share = Float(index + 1) / n
            readings.append(IMUReading(acceleration: entry.acceleration, angularRate: from + (rate - from) * share))
        }
        previousRate = rate
        return report
    }

    public func stop() throws(IMUError) {
        try accelerometer.stop()
        try gyroscope?.stop()
    }

    private func notReady(_ detail: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: detail)
    }
}
