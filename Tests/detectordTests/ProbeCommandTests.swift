import Foundation
import Testing

/// `probe --i2c` on simulated chips (this machine has no I2C): what a person wiring a board sees.
@Suite struct ProbeCommandTests {
    @Test(arguments: [
        ("mpu6050", "MPU-6050 at 0x68 (register 0x75 = 0x68)", "chip = \"mpu6050\""),
        ("lsm6dso", "LSM6DSO at 0x6a (register 0x0F = 0x6C)", "chip = \"lsm6dso\""),
        ("bmi160", "BMI160 at 0x68 (register 0x00 = 0xD1)", "chip = \"bmi160\""),
    ])
    func namesTheChipAndTheLinesThatReadIt(chip: String, found: String, line: String) throws {
        let output = try DetectordProcess.run(["probe", "--i2c", "--simulate", chip])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("i2c:       simulated \(chip): \(found)"), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("[sensor.i2c]"))
        #expect(output.standardOutput.contains(line))
        #expect(!output.standardOutput.contains("gps:"))
    }

    /// `--stream` runs the real driver through the daemon's source: samples in SI units at rest
    /// (gravity on z, 9.81 m/s²) and a rate close to the one asked.
    @Test func streamsSamplesInSIUnitsAndSaysTheRateAchieved() throws {
        let output = try DetectordProcess.run(["probe", "--i2c", "--simulate", "mpu6050", "--stream", "--seconds", "2", "--rate", "100"])
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput
        #expect(text.contains("a 0.00 0.00 9.81 m/s²"), "\(text)")
        #expect(text.contains("ω 0.000 0.000 0.000 rad/s"))
        let summary = try #require(text.split(separator: "\n").last { $0.contains("Hz achieved") })
        // "N samples in T s: R Hz achieved": within 20 % of 100 Hz over 2 s with start-up.
        let words = summary.split(separator: " ")
        let rate = words.firstIndex(of: "Hz").flatMap { Double(words[$0 - 1]) }
        #expect(rate.map { (80...105).contains($0) } == true, "\(summary)")
        #expect(summary.contains("0 gaps"))
    }

    @Test func anUnknownSimulatedChipIsRefused() throws {
        let output = try DetectordProcess.run(["probe", "--i2c", "--simulate", "mpu6051"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("--simulate takes one of"))
    }
}
