import DeviceLink
import FallDetect
import Foundation

/// `probe --i2c`: scans a bus (or a simulated one) for known IMUs, prints what each is and the
/// `[sensor.i2c]` lines that read it, and with `stream` runs the first one's driver through the
/// same source the daemon uses, printing samples in SI units and the rate really achieved.
struct I2CProbe {
    var bus: String
    var simulate: I2CChip?
    var stream: Bool
    var seconds: Double
    var rate: Double

    private let out = Terminal.standardOutput

    func run() -> Bool {
        let found: [IMUIdentity]
        let opened: any I2CBus
        var claims: [(address: UInt8, claim: I2CClaim)] = []
        do {
            opened = try openBus()
            claims = IMUIdentity.addresses.compactMap { address in opened.claim(address: address).map { (address, $0) } }
            // Bound addresses are neither read nor written (i2cdetect shows them as UU).
            found = try IMUIdentity.scan(opened, addresses: IMUIdentity.addresses.filter { address in !claims.contains { $0.address == address } })
        } catch {
            out.write("i2c:       \(error)\(error.errno == ENOENT ? " (is I2C enabled? raspi-config, or dtparam=i2c_arm=on)" : "")\n")
            return false
        }
        let name = simulate.map { "simulated \($0.rawValue)" } ?? bus
        for (address, claim) in claims {
            out.write("i2c:       \(name): 0x\(String(address, radix: 16)) not read: \(claim)\n")
        }
        guard !found.isEmpty else {
            out.write("i2c:       \(name): no known IMU answered at \(IMUIdentity.addresses.map { "0x" + String($0, radix: 16) }.joined(separator: ", "))\n")
            return false
        }
        for identity in found {
            out.write("i2c:       \(name): \(identity)\n")
            if let note = identity.model.note { out.write("i2c:         \(note)\n") }
        }
        let chosen = simulate.flatMap(\.family).flatMap(IMUModel.first(of:)) ?? found[0].model
        let chip = I2CChip(model: chosen)
        let address = found.first { $0.model.family == chosen.family || chosen.family == .adxl345ITG3200 && $0.model.family == .adxl345 }?.address
            ?? found[0].address
        out.write("i2c:       to read it, in the configuration:\n")
        out.write("             [sensor]\n             source = \"i2c\"\n             rate_hz = \(ProgressLine.fixed(rate, 0))\n")
        out.write("             [sensor.i2c]\n             bus = \(busNumber)\n             address = 0x\(String(address, radix: 16))\n             chip = \"\(chip.rawValue)\"\n")
        guard stream else { return true }
        return streamSamples(family: chosen.family, address: address)
    }

    private var busNumber: String {
        bus.hasPrefix("/dev/i2c-") ? String(bus.dropFirst("/dev/i2c-".count)) : "1"
    }

    private func openBus() throws(I2CError) -> any I2CBus { try Self.openBus(bus, simulate: simulate) }

    /// The Linux bus at `path`, or a simulated bus with `simulate`'s chip lying still on it.
    static func openBus(_ path: String, simulate: I2CChip?) throws(I2CError) -> any I2CBus {
        guard let simulate, let family = simulate.family, let model = IMUModel.first(of: family) else { return try LinuxI2CBus(path: path) }
        let simulated = SimulatedI2CBus(name: "simulated-i2c", clock: SystemIMUClock())
        SimulatedIMUBoard.attach(model, to: simulated, motion: RestingMotion())
        return simulated
    }

    /// Streams for `seconds`, printing about ten samples a second and the rate each second.
    private func streamSamples(family: IMUFamily, address: UInt8) -> Bool {
        let options = I2CSensorOptions(busPath: bus, address: address, family: family, request: IMURequest(rateHz: rate))
        let simulate = simulate
        let out = out
        let source = I2CSensorSource(
            options: options,
            openBus: { path throws(I2CError) in try Self.openBus(path, simulate: simulate) },
            notices: { out.write("i2c:       \($0)\n") })
        let start = MonotonicTime.nowNanoseconds()
        var total = 0
        var secondStart = start
        var secondCount = 0
        var nextPrint = start
        let outcome = SensorThread.run(source, stop: OnceFlag(), seconds: seconds) { batch in
            let now = MonotonicTime.nowNanoseconds()
            total += batch.count
            secondCount += batch.count
            if now >= nextPrint, let last = batch.last {
                out.write("i2c:       \(Self.describe(last))\n")
                nextPrint = now + 100_000_000
            }
            if now - secondStart >= 1_000_000_000 {
                out.write("i2c:       \(secondCount) samples in the last \(ProgressLine.fixed(Double(now - secondStart) / 1e9, 2)) s\n")
                secondStart = now
                secondCount = 0
            }
        }
        if case .failure(let error) = outcome {
            out.write("i2c:       \(error)\n")
            return false
        }
        let elapsed = Double(MonotonicTime.nowNanoseconds() - start) / 1e9
        var summary = "i2c:       \(total) samples in \(ProgressLine.fixed(elapsed, 1)) s: \(ProgressLine.fixed(Double(total) / elapsed, 1)) Hz achieved"
        if let condition = source.condition {
            if let measured = condition.measuredRateHz { summary += ", chip rate \(ProgressLine.fixed(measured, 2)) Hz" }
            summary += ", \(condition.gaps) gaps, \(condition.overflows) overflows"
            if let fault = condition.fault { summary += ", fault: \(fault)" }
        }
        out.write(summary + "\n")
        return total > 0
    }

    /// A sample in SI units: m/s² and rad/s.
    static func describe(_ sample: IMUSample) -> String {
        let a = sample.acceleration * 9.80665
        let w = sample.angularRate * (Float.pi / 180)
        func three(_ v: SIMD3<Float>, _ places: Int) -> String {
            [v.x, v.y, v.z].map { ProgressLine.fixed(Double($0), places) }.joined(separator: " ")
        }
        return "t \(ProgressLine.fixed(Double(sample.timestampNanoseconds) / 1e9, 3)) s  a \(three(a, 2)) m/s²  ω \(three(w, 3)) rad/s"
    }
}
