import DeviceLink
import FallDetect
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `bench --i2c`: the driver path (I2CSensorSource, the chip's driver, timestamps, the ring) on a
/// simulated bus whose clock only moves when the source waits, so a run of simulated seconds takes
/// no real time and the bus traffic is an exact count. FIFO drains at the watermark against one
/// sample at a time on data-ready, per chip and rate.
struct DriverPathBench {
    struct Row: Sendable, Encodable {
        var chip: String
        var rateHz: Double
        var mode: String
        var seconds: Double
        var samples: Int
        var transactionsPerSecond: Double
        var wireBytesPerSecond: Double
        var bytesReadPerSecond: Double
        var gaps: UInt64
        /// Thread CPU time per second of data, simulator included (it runs on the same thread).
        var cpuMicrosecondsPerSecond: Double
    }

    var family: IMUFamily
    var rateHz: Double
    var useFIFO: Bool
    var seconds: Double

    func run() throws(FallDetectError) -> Row {
        guard let model = IMUModel.first(of: family) else { throw FallDetectError(.invalidArgument, "no model of \(family.rawValue)") }
        let clock = ManualIMUClock()
        let end = clock.nowNanoseconds() + Int64(seconds * 1e9)
        let counters = SimulatedBusCounters()
        let motion = RestingMotion(gravity: SIMD3(0.1, -0.2, 0.97))
        let source = I2CSensorSource(
            options: I2CSensorOptions(busPath: "bench", family: family, request: IMURequest(rateHz: rateHz, useFIFO: useFIFO)), clock: clock,
            openBus: { path throws(I2CError) in
                let bus = SimulatedI2CBus(name: path, clock: clock, counters: counters)
                SimulatedIMUBoard.attach(model, to: bus, motion: motion)
                return bus
            })
        let ring = SampleRing(capacity: 1 << 14)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        let buffer = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        var samples = 0
        let cpuStart = Self.threadCPUNanoseconds()
        _ = try source.run(into: producer, batchWritten: {
            while true {
                let n = consumer.pop(into: buffer)
                if n == 0 { break }
                samples += n
            }
        }, shouldStop: { clock.nowNanoseconds() >= end })
        let cpu = Self.threadCPUNanoseconds() - cpuStart
        let statistics = counters.statistics
        return Row(
            chip: model.name, rateHz: rateHz, mode: useFIFO ? "fifo" : "polled", seconds: seconds, samples: samples,
            transactionsPerSecond: Double(statistics.transactions) / seconds, wireBytesPerSecond: Double(statistics.wireBytes) / seconds,
            bytesReadPerSecond: Double(statistics.bytesRead) / seconds, gaps: source.condition?.gaps ?? 0,
            cpuMicrosecondsPerSecond: Double(cpu) / 1000 / seconds)
    }

    static func threadCPUNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
