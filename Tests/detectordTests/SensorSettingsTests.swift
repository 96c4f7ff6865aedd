import DeviceLink
import FallDetect
import Foundation
import Testing
@testable import detectord

/// `[sensor]` with its chip tables: what the driver path is asked, and the simulated source.
@Suite struct SensorSettingsTests {
    static func withI2C(_ lines: String) -> String {
        DaemonConfigurationTests.minimal + lines + "\n"
    }

    @Test func theChipTableCarriesRangeFilterFIFOAndPriority() throws {
        let text = Self.withI2C("address = 0x6a\nchip = \"lsm6dsox\"\naccelerometer_range_g = 8\ngyroscope_range_dps = 500\nlow_pass_hz = 50\nfifo = false\nwatermark = 8\nrealtime_priority = 20")
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/d.toml", environment: [:])
        guard case .i2c(let chip) = c.sensor.source else {
            Issue.record("not i2c: \(c.sensor.source)")
            return
        }
        #expect(chip.address == 0x6A)
        #expect(chip.chip == .lsm6dsox)
        #expect(chip.chip.family == .lsm6dso)
        let options = SensorSourceFactory.options(chip, c.sensor)
        #expect(options.busPath == "/dev/i2c-1")
        #expect(options.address == 0x6A)
        #expect(options.family == .lsm6dso)
        #expect(options.request == IMURequest(rateHz: 200, accelerometerRange: 8, gyroscopeRange: 500, lowPassHz: 50, useFIFO: false, watermark: 8))
        #expect(options.realtimePriority == 20)
    }

    @Test func outOfRangeChipValuesNameTheirField() throws {
        #expect(Self.issueField(Self.withI2C("accelerometer_range_g = 1")) == "sensor.i2c.accelerometer_range_g")
        #expect(Self.issueField(Self.withI2C("realtime_priority = 100")) == "sensor.i2c.realtime_priority")
        #expect(Self.issueField(Self.withI2C("chip = \"mpu6051\"")) == "sensor.i2c.chip")
        #expect(Self.issueField(Self.withI2C("watermark = 0")) == "sensor.i2c.watermark")
    }

    static func issueField(_ text: String) -> String? {
        let issues = DaemonConfigurationTests.issues(text)
        #expect(issues.count == 1, "\(issues)")
        return issues.first?.field
    }

    /// A fixed mapping is applied by the chip's source; `auto` is left to the pipeline.
    @Test func aFixedAxisMappingGoesToTheSource() throws {
        let text = DaemonConfigurationTests.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\naxis_mapping = \"x=+z,y=-x,z=-y\"")
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/d.toml", environment: [:])
        guard case .i2c(let chip) = c.sensor.source else { return }
        let options = SensorSourceFactory.options(chip, c.sensor)
        #expect(options.axes == AxisMapping("x=+z,y=-x,z=-y"))
        #expect(options.axes.apply(SIMD3(1, 2, 3)) == SIMD3(3, -1, -2))
    }

    /// A mirror image is no mounting of a real chip: refused, naming the field, with the mapping
    /// it most likely is.
    @Test func aMirrorImageMappingIsRefusedWithTheLikelyOne() throws {
        let text = DaemonConfigurationTests.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\naxis_mapping = \"x=+y,y=+x,z=+z\"")
        let issues = DaemonConfigurationTests.issues(text)
        #expect(issues.map(\.field) == ["sensor.axis_mapping"], "\(issues)")
        #expect(issues.first?.message.contains("mirror image") == true && issues.first?.message.contains("\"x=+y,y=-x,z=+z\"") == true, "\(issues)")
        #expect(AxisMapping("x=+y,y=-x,z=+z")?.isMirror == false)
    }

    static let simulated = DaemonConfigurationTests.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"simulated\"")

    @Test func aSimulatedChipMustBeNamedAndItsMotionMustExist() throws {
        let dir = try DaemonConfigurationTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.toml").path
        #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent("fall.detrec").path, contents: Data()))
        let good = Self.simulated + "[sensor.simulated]\nchip = \"mpu6050\"\nmotion = \"fall.detrec\"\nspeed = 4\nrate_factor = 1.02\n"
        let c = try DaemonConfiguration.parse(text: good, path: path, environment: [:])
        guard case .simulated(let s) = c.sensor.source else {
            Issue.record("not simulated: \(c.sensor.source)")
            return
        }
        #expect(s.chip.chip == .mpu6050)
        #expect(s.motion == dir.appendingPathComponent("fall.detrec").path)
        #expect(s.speed == 4)
        #expect(s.rateFactor == 1.02)

        let unnamed = DaemonConfigurationTests.issues(Self.simulated + "[sensor.simulated]\nspeed = 2\n", path: path)
        #expect(unnamed.map(\.field) == ["sensor.simulated.chip"], "\(unnamed)")
        let gone = DaemonConfigurationTests.issues(good.replacingOccurrences(of: "fall.detrec", with: "gone.detrec"), path: path)
        #expect(gone.map(\.field) == ["sensor.simulated.motion"], "\(gone)")
        let missingTable = DaemonConfigurationTests.issues(Self.simulated, path: path)
        #expect(missingTable.map(\.field) == ["sensor.simulated"], "\(missingTable)")
    }

    @Test(arguments: I2CChip.allCases.dropFirst())
    func everyChipNameHasADriverFamilyAndAModel(chip: I2CChip) throws {
        let family = try #require(chip.family)
        let model = try #require(IMUModel.first(of: family))
        #expect(I2CChip(model: model).family == family)
    }
}
