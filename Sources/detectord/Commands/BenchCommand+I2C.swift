import ArgumentParser
import DeviceLink
import FallDetect
import Foundation

extension BenchCommand {
    /// The chips `--i2c all` measures.
    static let benchedChips: [I2CChip] = [.mpu6050, .mpu6500, .icm20948, .lsm6ds3, .lsm6dso, .bmi160, .adxl345, .adxl345ITG3200]

    func validateI2C() throws {
        for name in i2cChips where name != "all" {
            guard let chip = I2CChip(rawValue: name), chip != .auto else {
                throw ValidationError("--i2c takes all or a chip: \(I2CChip.allCases.dropFirst().map(\.rawValue).joined(separator: ", ")); got '\(name)'")
            }
        }
        guard i2cSeconds > 0, i2cSeconds <= 3600 else { throw ValidationError("--i2c-seconds must lie in (0, 3600]") }
    }

    /// Each chip at 200 and 1000 Hz (or its nearest rates), FIFO and polled: bus traffic per
    /// second of data (exact counts) and CPU per second of data, with the ratios polled / FIFO.
    func runI2C() throws {
        let out = Terminal.standardOutput
        let chips = i2cChips.contains("all") ? Self.benchedChips : i2cChips.compactMap(I2CChip.init(rawValue:))
        var rows: [DriverPathBench.Row] = []
        out.write("Driver path on the simulated bus, \(ProgressLine.fixed(i2cSeconds, 0)) s of data per row (simulated time; the bus counts are exact)\n\n")
        out.write("chip                     rate Hz  mode    samples  transfers/s  wire B/s  gaps  CPU µs per s of data\n")
        for chip in chips {
            guard let family = chip.family else { continue }
            for rate in [200.0, 1000.0] {
                var pair: [DriverPathBench.Row] = []
                for fifo in [true, false] {
                    let row = try DriverPathBench(family: family, rateHz: rate, useFIFO: fifo, seconds: i2cSeconds).run()
                    pair.append(row)
                    rows.append(row)
                    out.write(Self.pad(row.chip, 24) + Self.pad(ProgressLine.fixed(row.rateHz, 0), 9, right: true) + "  " + Self.pad(row.mode, 6)
                        + Self.pad(String(row.samples), 9, right: true) + Self.pad(ProgressLine.fixed(row.transactionsPerSecond, 0), 13, right: true)
                        + Self.pad(ProgressLine.fixed(row.wireBytesPerSecond, 0), 10, right: true) + Self.pad(String(row.gaps), 6, right: true)
                        + Self.pad(ProgressLine.fixed(row.cpuMicrosecondsPerSecond, 0), 22, right: true) + "\n")
                }
                if pair.count == 2, pair[0].transactionsPerSecond > 0, pair[0].cpuMicrosecondsPerSecond > 0 {
                    out.write("  polled / fifo: \(ProgressLine.fixed(pair[1].transactionsPerSecond / pair[0].transactionsPerSecond, 1))× the transfers, "
                        + "\(ProgressLine.fixed(pair[1].cpuMicrosecondsPerSecond / pair[0].cpuMicrosecondsPerSecond, 1))× the CPU\n")
                }
            }
        }
        if let json {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(rows).write(to: URL(fileURLWithPath: json))
            } catch {
                throw FallDetectError(.io, "cannot write the results: \(error)", path: json)
            }
        }
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
