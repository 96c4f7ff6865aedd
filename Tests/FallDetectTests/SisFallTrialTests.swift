import Testing

@testable import FallDetect

@Suite struct SisFallTrialTests {
    static let rows: [Int16] = [
        17, -179, -99, -18, -504, -352, 76, -697, -279,
        256, -256, 512, 16384, 0, -16384, 1024, -2048, 4096,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]

    @Test func unitsAxesAndTimestamps() throws {
        let name = try SisFallTrialName(parsing: "F01_SA01_R01")
        let trial = SisFallTrial(name: name, path: "p", rows: Self.rows, labels: [0, 1, 1])
        #expect(trial.samples.count == 3 && trial.mma8451qAcceleration.count == 3)
        #expect(trial.samples.map(\.timestampNanoseconds) == [0, 5_000_000, 10_000_000])
        // Row 2: ADXL345 (1, -1, 2) g in the sensor frame; body x = +z, y = -x, z = -y.
        #expect(trial.samples[1].acceleration == SIMD3(2, -1, 1))
        // ITG3200: 16384 / 14.375 °/s (the datasheet's sensitivity).
        let rate = Float(16384) / 14.375
        #expect(trial.samples[1].angularRate == SIMD3(-rate, -rate, 0))
        // MMA8451Q: raw/1024 g → (1, -2, 4) in the sensor frame.
        #expect(trial.mma8451qAcceleration[1] == SIMD3(4, -1, 2))
        let a = trial.samples[0].acceleration
        #expect(abs(a.x - Float(-99) / 256) < 1e-6 && abs(a.y - Float(-17) / 256) < 1e-6 && abs(a.z - Float(179) / 256) < 1e-6)
        #expect(trial.durationSeconds == 0.01)
    }

    @Test func recordingCarriesActivityAndLabelChanges() throws {
        let name = try SisFallTrialName(parsing: "F01_SA01_R01")
        let trial = SisFallTrial(name: name, path: "p", rows: Self.rows, labels: [0, 2, 2])
        let r = trial.recording()
        #expect(r.info.title == "SisFall F01 SA01 R01" && r.info.sensor == .sisFall && !r.info.isSynthetic)
        #expect(r.samples == trial.samples)
        #expect(r.events.map(\.kind) == [.activity, .label, .label])
        #expect(r.events[0].value == 1 && r.events[0].text == "F01 Fall forward while walking caused by a slip")
        #expect(r.events[1].timestampNanoseconds == 0 && r.events[1].value == 0)
        #expect(r.events[2].timestampNanoseconds == 5_000_000 && r.events[2].value == 2)
        #expect(trial.labelsMarkFall == true)
        let unlabeled = SisFallTrial(name: name, path: "p", rows: Self.rows, labels: nil)
        #expect(unlabeled.recording().events.count == 1 && unlabeled.labelsMarkFall == nil)
    }
}
