import DeviceLink
import Testing
@testable import detectord

/// `bench --i2c`'s counts are exact (the clock moves only when the source waits), so CI can hold
/// the driver path to them: what FIFO drains save over polling, and no sample lost either way.
@Suite struct DriverPathBenchTests {
    /// The MPU-6050 at 200 Hz with a 4-sample watermark: 50 drains a second, each INT_STATUS,
    /// FIFO_COUNT and one burst of 48 bytes (plus the set-up's few transfers, and its 100 ms
    /// reset, in which no sample is made).
    @Test func theMPU6050DrainsFiftyTimesASecondInThreeTransfers() throws {
        let row = try DriverPathBench(family: .mpu6050, rateHz: 200, useFIFO: true, seconds: 10).run()
        #expect((149...152).contains(row.transactionsPerSecond), "\(row)")
        #expect(abs(row.bytesReadPerSecond - (1 + 2 + 48) * 50) <= 51, "\(row)")
        #expect(row.gaps == 0)
        // 10 s at 200 Hz, less the 60 ms start-up the driver waits out and the last partial drain.
        #expect((1_960...2_000).contains(row.samples), "\(row.samples)")
    }

    @Test(arguments: [IMUFamily.mpu6050, .mpu6500, .icm20948, .lsm6ds3, .lsm6dso, .bmi160])
    func fifoDrainsTakeAFractionOfPollingsTransfers(family: IMUFamily) throws {
        let fifo = try DriverPathBench(family: family, rateHz: 200, useFIFO: true, seconds: 10).run()
        let polled = try DriverPathBench(family: family, rateHz: 200, useFIFO: false, seconds: 10).run()
        #expect(fifo.transactionsPerSecond * 2.5 <= polled.transactionsPerSecond, "\(fifo.transactionsPerSecond) vs \(polled.transactionsPerSecond)")
        #expect(fifo.gaps == 0 && polled.gaps == 0)
        #expect(abs(fifo.samples - polled.samples) <= fifo.samples / 100, "both deliver every sample: \(fifo.samples) and \(polled.samples)")
    }
}
