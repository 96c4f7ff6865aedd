import FallDetect
import Foundation
import Synchronization
import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

/// The live I2C source on simulated chips, on a clock that moves only when the source waits: a
/// run of simulated seconds takes no real time and every figure is exact. `during` runs at each
/// check of `shouldStop`, which is where faults are injected mid-stream.
@Suite struct I2CSensorSourceTests {
    final class Run {
        let clock = ManualIMUClock()
        let bus: SimulatedI2CBus
        var samples: [IMUSample] = []
        let log = Log()

        /// What the source said, from its callbacks.
        final class Log: Sendable {
            let notices = Mutex<[String]>([])
            let gaps = Mutex<[RecordedEvent]>([])
            let configurations = Mutex<[IMUConfiguration]>([])
        }

        init() { bus = SimulatedI2CBus(name: "/dev/i2c-1", clock: clock) }

        /// Samples stamped in the last second of the run: streaming went on to the end.
        var lastSecond: Int { samples.filter { $0.timestampNanoseconds > clock.nowNanoseconds() - 1_000_000_000 }.count }

        var elapsed: Double { Double(clock.nowNanoseconds() - 1_000_000_000) / 1e9 }

        func source(_ options: I2CSensorOptions) -> I2CSensorSource {
            nonisolated(unsafe) let bus = bus
            let log = log
            return I2CSensorSource(
                options: options, clock: clock, openBus: { _ throws(I2CError) in bus },
                notices: { text in log.notices.withLock { $0.append(text) } }, gaps: { gap in log.gaps.withLock { $0.append(gap) } },
                configured: { configuration in log.configurations.withLock { $0.append(configuration) } })
        }

        /// Runs until `seconds` of simulated time, calling `during` with the elapsed time first.
        func run(_ source: I2CSensorSource, seconds: Double, during: (Double) -> Void = { _ in }) throws(FallDetectError) {
            let ring = SampleRing(capacity: 1 << 14)
            let producer = ring.makeProducer()
            let consumer = ring.makeConsumer()
            let buffer = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: 4096)
            defer { buffer.deallocate() }
            _ = try source.run(into: producer, batchWritten: {
                while true {
                    let n = consumer.pop(into: buffer)
                    if n == 0 { break }
                    samples.append(contentsOf: buffer[0..<n])
                }
            }, shouldStop: {
                during(elapsed)
                return elapsed >= seconds
            })
        }
    }

    static let mpu6050 = IMUModel.first(of: .mpu6050)!

    static func options(family: IMUFamily? = nil, address: UInt8? = nil, rate: Double = 200, axes: AxisMapping = .identity) -> I2CSensorOptions {
        I2CSensorOptions(busPath: "/dev/i2c-1", address: address, family: family, request: IMURequest(rateHz: rate), axes: axes)
    }

    static func strictlyIncreasing(_ samples: [IMUSample]) -> Bool {
        zip(samples, samples.dropFirst()).allSatisfy { $0.timestampNanoseconds < $1.timestampNanoseconds }
    }

    @Test func findsTheChipAndStreamsItsMotionEvenlySpaced() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion(gravity: SIMD3(0.5, -0.25, 0.8)))
        let source = run.source(Self.options())
        try run.run(source, seconds: 5)
        // About 5 s at 200 Hz, less the chip's start-up and the last partial watermark.
        #expect((950...1000).contains(run.samples.count), "\(run.samples.count)")
        #expect(Self.strictlyIncreasing(run.samples))
        let spacing = zip(run.samples, run.samples.dropFirst()).map { $1.timestampNanoseconds - $0.timestampNanoseconds }
        #expect(spacing.allSatisfy { abs($0 - 5_000_000) < 1_500_000 }, "\(spacing.min() ?? 0)…\(spacing.max() ?? 0)")
        let last = try #require(run.samples.last)
        #expect(abs(last.timestampNanoseconds - run.clock.nowNanoseconds()) < 25_000_000)
        #expect(abs(last.acceleration.x - 0.5) < 0.002 && abs(last.acceleration.y + 0.25) < 0.002)
        let condition = try #require(source.condition)
        #expect(condition.chip == "MPU-6050 at 0x68")
        #expect(condition.fault == nil)
        #expect(condition.gaps == 0 && condition.overflows == 0 && condition.recoveries == 0)
        #expect(run.log.notices.withLock { $0 }.contains { $0.contains("MPU-6050 at 0x68") && $0.contains("FIFO") })
    }

    /// A board 2 % fast: the rate is measured, said, and the stamps keep up with the clock.
    @Test func measuresAFastBoardsRealRate() throws {
        let board = try Self.streamedFor30Seconds(rateFactor: 1.02)
        let measured = try #require(board.condition.measuredRateHz)
        #expect(abs(measured - 204) < 0.3, "\(measured)")
        #expect(abs((board.condition.rateErrorPPM ?? 0) - 20_000) < 1_500)
        #expect(board.condition.gaps == 0)
        #expect(board.increasing)
        #expect(abs(board.lastAhead) < 25_000_000, "stamps follow the chip, not the nominal rate")
    }

    /// 30 s of a resting MPU-6050 whose oscillator runs at `rateFactor` of nominal: its
    /// condition, whether its stamps strictly increase, and how far the last stamp is ahead of
    /// the clock (ns).
    static func streamedFor30Seconds(rateFactor: Double) throws -> (condition: SensorCondition, increasing: Bool, lastAhead: Int64) {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion(), rateFactor: rateFactor)
        let source = run.source(Self.options())
        try run.run(source, seconds: 30)
        let last = try #require(run.samples.last)
        return (try #require(source.condition), Self.strictlyIncreasing(run.samples), last.timestampNanoseconds - run.clock.nowNanoseconds())
    }

    /// A board 15 % fast, further off than the rate estimate trusts: its stamps keep to the
    /// clock instead of running ahead of it, and what the nominal rate has no room for is
    /// counted as duplicates, for the status to show.
    @Test func aBoardTooFastToMeasureIsStampedOnTheClock() throws {
        let board = try Self.streamedFor30Seconds(rateFactor: 1.15)
        #expect(board.condition.measuredRateHz == nil)
        #expect(board.condition.duplicates > 0 && board.condition.gaps == 0, "\(board.condition)")
        #expect(board.increasing)
        #expect(board.lastAhead < 25_000_000, "stamps ahead of the clock")
    }

    /// A slow board at 1 kHz, before its rate is measured (5 s): stamped at the nominal rate, each
    /// 20-sample batch (or 40, as a configured watermark may make it) falls behind the drain
    /// clock, and the steering must keep up without the lag being taken for lost samples.
    @Test(arguments: [(0.99, nil), (0.98, nil), (1.02, nil), (0.975, 40)] as [(Double, Int?)])
    func aBoardOffItsRateAt1kHzShowsNoGapsBeforeItIsMeasured(factor: Double, watermark: Int?) throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion(), rateFactor: factor)
        var options = Self.options(rate: 1000)
        options.request.watermark = watermark
        let source = run.source(options)
        try run.run(source, seconds: 4)
        let condition = try #require(source.condition)
        #expect(condition.measuredRateHz == nil, "not measured yet")
        #expect(condition.gaps == 0 && condition.lostSamples == 0, "\(condition.gaps) gaps, \(condition.lostSamples) lost")
        #expect(Self.strictlyIncreasing(run.samples))
    }

    /// A rate and a range the chip does not have: it runs at the next ones up, says so, and
    /// reports them each time it is set up, for the detector to follow.
    @Test func aRateTheChipLacksIsReportedAsTheOneItRunsAt() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        var options = Self.options(rate: 300)
        options.request.gyroscopeRange = 300
        let source = run.source(options)
        try run.run(source, seconds: 1)
        let configurations = run.log.configurations.withLock { $0 }
        let rates = configurations.map(\.rateHz)
        #expect(rates.count == 1 && abs((rates.first ?? 0) - 1000.0 / 3) < 0.01, "1 kHz divided by 3: \(rates)")
        #expect(configurations.first?.gyroscopeRange == 500, "±300 °/s is ±500 on an MPU-6050")
        #expect(run.log.notices.withLock { $0 }.contains { $0.contains("has no 300 Hz rate; it runs at 333.33 Hz") })
    }

    /// Unplugged for half a second: a fault at once, a re-probe with backoff, the chip set up again,
    /// and the half second recorded as one gap of about 100 samples.
    @Test func anUnpluggedChipIsAFaultAtOnceAndStreamsAgainWhenBack() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var faultSeenAt: Double?
        var unplugged = false
        var replugged = false
        try run.run(source, seconds: 4) { t in
            if !unplugged, t >= 1 {
                unplugged = true
                run.bus.setFault(.unplugged, at: 0x68)
            }
            if unplugged, faultSeenAt == nil, source.condition?.fault != nil { faultSeenAt = t }
            if !replugged, t >= 1.5 {
                replugged = true
                run.bus.setFault(nil, at: 0x68)
            }
        }
        let seen = try #require(faultSeenAt)
        #expect(seen - 1 < 0.1, "fault seen \(seen - 1) s after the unplug")
        let condition = try #require(source.condition)
        #expect(condition.fault == nil)
        #expect(condition.recoveries == 1)
        #expect(condition.gaps == 1)
        // Away from 1.0 s until the retry after the replug at 1.5 s (backoff 0.1, 0.2, 0.4 s)
        // found it and it was set up again: the gap in the timestamps is what is counted lost.
        let jumps = zip(run.samples, run.samples.dropFirst()).map { $1.timestampNanoseconds - $0.timestampNanoseconds }
        let away = try #require(jumps.max())
        #expect((500_000_000...1_000_000_000).contains(away), "\(away)")
        #expect(abs(Int(condition.lostSamples) - (Int((Double(away) / 5e6).rounded()) - 1)) <= 1, "\(condition.lostSamples) lost for \(away) ns")
        let gap = try #require(run.log.gaps.withLock { $0.first })
        #expect(gap.kind == .gap && gap.text.contains("sensor lost"))
        #expect(Self.strictlyIncreasing(run.samples))
        #expect(run.log.notices.withLock { $0 }.contains { $0.contains("answers again") })
        // Streaming went on: the last second is there.
        #expect(run.lastSecond > 180, "\(run.lastSecond) samples in the last second at 200 Hz")
    }

    /// Each attempt to find a lost chip is stamped in real time (the watchdog believes the fault
    /// only while the stamps go on), and the stamp goes with the fault.
    @Test func eachAttemptOfTheSearchIsStampedUntilTheChipIsBack() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var stamps: [Int64] = []
        var streamingStamp: Int64?? = .none
        try run.run(source, seconds: 3) { t in
            if t > 0.5, t < 1, streamingStamp == nil { streamingStamp = .some(source.condition?.searchedAtNanoseconds) }
            run.bus.setFault((1...2).contains(t) ? .unplugged : nil, at: 0x68)
            if let stamp = source.condition?.searchedAtNanoseconds, stamps.last != stamp { stamps.append(stamp) }
        }
        #expect(streamingStamp == .some(nil), "no stamp while streaming")
        // Backoff 0.1, 0.2, 0.4, 0.8 s over the second away: four attempts or more, each stamped.
        #expect(stamps.count >= 4 && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps)")
        #expect(source.condition?.fault == nil && source.condition?.searchedAtNanoseconds == nil)
    }

    /// The adapter itself went (ENODEV: a USB bridge unplugged, its driver rebound), seen by a
    /// drain or by the search after a loss: the old fd never reaches the chip again, so the bus
    /// is opened anew and streaming goes on.
    @Test(arguments: [false, true])
    func anAdapterThatWentIsOpenedAgain(seenBySearch: Bool) throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let second = SimulatedI2CBus(name: "/dev/i2c-1", clock: run.clock)
        SimulatedIMUBoard.attach(Self.mpu6050, to: second, motion: RestingMotion())
        nonisolated(unsafe) let buses = [run.bus, second]
        let opens = Mutex(0)
        let source = I2CSensorSource(
            options: Self.options(), clock: run.clock,
            openBus: { _ throws(I2CError) in buses[min(opens.withLock { $0 += 1; return $0 }, buses.count) - 1] },
            notices: { _ in }, gaps: { _ in }, configured: { _ in })
        var unplugged = false
        var gone = false
        try run.run(source, seconds: 3) { t in
            // Lost first as an unplugged chip (EREMOTEIO), then the search meets ENODEV: an empty
            // address would hide that the bus itself is dead.
            if seenBySearch, !unplugged, t >= 1 {
                unplugged = true
                run.bus.setFault(.unplugged, at: 0x68)
            }
            if !gone, t >= 1.2 {
                gone = true
                run.bus.setFault(.adapterGone, at: 0x68)
            }
        }
        #expect(opens.withLock { $0 } == 2, "opened again after ENODEV")
        #expect(source.condition?.fault == nil && source.condition?.recoveries == 1)
        #expect(run.lastSecond > 180, "\(run.lastSecond) samples in the last second at 200 Hz")
    }

    @Test func aHungBusIsAFaultNamingItAndClearsByItself() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var reason: String?
        try run.run(source, seconds: 3) { t in
            run.bus.busFault = (1...1.3).contains(t) ? .hungBus : nil
            if reason == nil, let fault = source.condition?.fault { reason = fault }
        }
        #expect(reason?.contains("hung") == true, "\(reason ?? "none")")
        #expect(source.condition?.fault == nil)
        #expect(source.condition?.recoveries == 1)
    }

    /// One garbled transfer (EIO, as i2c-bcm2835 gives for a clock-stretch timeout): a fault and a
    /// re-probe, never the end of the sensor thread.
    @Test func aFailedTransferIsAFaultThatClears() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var failed = false
        try run.run(source, seconds: 3) { t in
            if !failed, t >= 1 {
                failed = true
                run.bus.failOnce(.transferFailed, at: 0x68)
            }
        }
        #expect(source.condition?.fault == nil)
        #expect(source.condition?.recoveries == 1)
        #expect(run.log.notices.withLock { $0 }.contains { $0.contains("the transfer failed") })
        #expect(run.lastSecond > 180, "\(run.lastSecond) samples in the last second at 200 Hz")
    }

    /// A chip that answers its identity and takes its set-up but fails every drain (its FIFO
    /// count unreadable): looked for again with backoff, one notice, no recovery counted;
    /// once its drains work, it streams and counts one recovery. Before, it was set up again at
    /// every drain interval, and each time lost and "answers again" were told.
    @Test func aChipWhoseDrainsFailIsLookedForWithBackoff() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var faultWhileFailing: String?
        var configuredWhileFailing = 0
        try run.run(source, seconds: 10) { t in
            run.bus.setFault(t >= 1 && t < 5 ? .transferFailed : nil, at: 0x68, register: 0x72)
            if t < 5 {
                configuredWhileFailing = run.log.configurations.withLock { $0.count }
                faultWhileFailing = source.condition?.fault
            }
        }
        // Set up at the start, then after 0.1, 0.2, 0.4, 0.8 and 1.6 s of backoff: 6 in 5 s.
        #expect((4...8).contains(configuredWhileFailing), "set up \(configuredWhileFailing) times in 4 s of failing drains")
        #expect(faultWhileFailing?.contains("lost") == true, "the fault shows while the drains fail: \(faultWhileFailing ?? "none")")
        let notices = run.log.notices.withLock { $0 }
        #expect(notices.filter { $0.contains("lost") }.count <= 2, "\(notices)")
        #expect(notices.filter { $0.contains("answers again") }.count == 1, "\(notices)")
        #expect(source.condition?.fault == nil && source.condition?.recoveries == 1)
        #expect(run.lastSecond > 180, "\(run.lastSecond) samples in the last second at 200 Hz")
    }

    /// The reading thread held up for 20 ms (four periods) in the middle of a drain, after the
    /// chip's FIFO count (0x74, its data port) or before it (0x3A, the status read first): no
    /// sample was lost, so none is reported lost, and the stamps stay evenly spaced.
    @Test(arguments: [UInt8(0x74), 0x3A]) func aDrainHeldUpByTheSchedulerIsNoGap(register: UInt8) throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var stalled = 0
        try run.run(source, seconds: 4) { t in
            if stalled < 3, t >= Double(stalled + 1) {
                stalled += 1
                run.bus.stallOnce(nanoseconds: 20_000_000, at: 0x68, register: register)
            }
        }
        let condition = try #require(source.condition)
        #expect(condition.gaps == 0 && condition.lostSamples == 0, "\(run.log.notices.withLock { $0 })")
        #expect(condition.duplicates == 0)
        #expect(Self.strictlyIncreasing(run.samples))
        let spacing = zip(run.samples, run.samples.dropFirst()).map { $1.timestampNanoseconds - $0.timestampNanoseconds }
        #expect(spacing.allSatisfy { abs($0 - 5_000_000) < 1_500_000 }, "\(spacing.min() ?? 0)…\(spacing.max() ?? 0)")
    }

    /// Held up between the count and the read for longer than the FIFO holds (1024 bytes on the
    /// MPU-6050, 512 on the ICM-20948: 85 and 42 records at 200 Hz), the FIFO overflowed during the
    /// drain and dropped its oldest bytes: the records read are shifted mid-record. They are thrown
    /// away as a break, never pushed.
    @Test(arguments: [IMUFamily.mpu6050, .icm20948])
    func aFIFOThatOverflowsDuringTheReadIsABreakNotMotion(family: IMUFamily) throws {
        let run = Run()
        let address = SimulatedIMUBoard.attach(IMUModel.first(of: family)!, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options(family: family))
        var stalled = false
        try run.run(source, seconds: 3) { t in
            if !stalled, t >= 1 {
                stalled = true
                // Right after the count: FIFO_COUNTH, 0x72 on the MPU, 0x70 in the ICM's bank 0.
                run.bus.stallOnce(nanoseconds: 800_000_000, at: address, register: family == .mpu6050 ? 0x72 : 0x70)
            }
        }
        let condition = try #require(source.condition)
        #expect(condition.gaps >= 1, "\(run.log.notices.withLock { $0 })")
        // At rest gravity is on z and nothing turns; shifted records put it on another axis or on
        // a gyroscope axis.
        func offRest(_ s: IMUSample) -> Float {
            let w = s.angularRate
            return max(abs(s.acceleration.x), abs(s.acceleration.y), abs(s.acceleration.z - 1), max(abs(w.x), abs(w.y), abs(w.z)) / 100)
        }
        let worst: Float = run.samples.map(offRest).max() ?? 0
        #expect(worst < 0.05, "a sample off rest by \(worst)")
        #expect(run.samples.count > 300)
    }

    /// The thread was kept from draining for 10 s: the FIFO overflowed, was reset, and the break
    /// is one gap worth the 10 s — never stitched.
    @Test func anOverflowIsResetAndRecordedAsAGapOfItsLength() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var stalled = false
        try run.run(source, seconds: 13) { t in
            if !stalled, t >= 1 {
                stalled = true
                run.clock.advance(nanoseconds: 10_000_000_000)
            }
        }
        let condition = try #require(source.condition)
        #expect(condition.overflows == 1)
        #expect(condition.gaps == 1)
        #expect((1_990...2_010).contains(condition.lostSamples), "\(condition.lostSamples)")
        #expect(Self.strictlyIncreasing(run.samples))
        let jump = zip(run.samples, run.samples.dropFirst()).map { $1.timestampNanoseconds - $0.timestampNanoseconds }.max() ?? 0
        #expect(jump > 9_900_000_000, "the gap stays a gap in the timestamps")
    }

    @Test func aCorruptedFIFOCountIsTreatedAsAnOverflow() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options())
        var corrupted = false
        try run.run(source, seconds: 3) { t in
            if !corrupted, t >= 1, let chip = run.bus.device(at: 0x68) as? SimulatedMPU6050 {
                corrupted = true
                chip.corruptNextFIFOCount = true
            }
        }
        #expect(source.condition?.overflows == 1)
        #expect(source.condition?.gaps == 1)
        #expect(Self.strictlyIncreasing(run.samples))
    }

    /// A board plugged in after the daemon started: the source waits for it rather than failing.
    @Test func aChipPluggedInLaterIsFound() throws {
        let run = Run()
        let source = run.source(Self.options())
        var attached = false
        var faultBefore: String?
        try run.run(source, seconds: 4) { t in
            if !attached, t >= 1 {
                faultBefore = source.condition?.fault
                attached = true
                SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
            }
        }
        #expect(faultBefore?.contains("no known IMU answered at 0x68, 0x69") == true, "\(faultBefore ?? "none")")
        #expect(run.samples.count > 300)
        #expect(source.condition?.fault == nil)
    }

    /// `chip =` names a family; the identity picks its member, whose driver settings differ (an
    /// LSM6DSL's FIFO is not an LSM6DS3's), as `detectord probe` advises the family's name.
    @Test(arguments: ["MPU-9250", "MPU-6050 clone (ICM-20689-type)", "LSM6DSL", "LSM6DSR"])
    func aConfiguredFamilyFindsEachOfItsMembers(name: String) throws {
        let model = try #require(IMUModel.catalog.first { $0.name == name })
        let run = Run()
        SimulatedIMUBoard.attach(model, to: run.bus, motion: RestingMotion())
        let source = run.source(Self.options(family: model.family))
        try run.run(source, seconds: 2)
        #expect(source.condition?.chip?.hasPrefix(model.name + " at") == true, "\(source.condition?.chip ?? "none")")
        #expect(run.samples.count > 300)
        #expect(abs((run.samples.last?.acceleration.z ?? 0) - 1) < 0.01)
    }

    /// Another chip at the first address (an ITG-3200 here, a DS3231 clock on many boards) is
    /// passed over for the configured one at the second.
    @Test func anotherChipAtTheFirstAddressIsPassedOver() throws {
        let run = Run()
        SimulatedIMUBoard.attach(IMUModel.first(of: .itg3200)!, to: run.bus, address: 0x68, motion: RestingMotion())
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x69, motion: RestingMotion())
        let source = run.source(Self.options(family: .mpu6050))
        try run.run(source, seconds: 2)
        #expect(source.condition?.chip == "MPU-6050 at 0x69")
        #expect(run.samples.count > 300)
    }

    /// An ICM-20948 left in register bank 2 (its set-up cut short) is found again, configured or
    /// scanned for.
    @Test(arguments: [IMUFamily.icm20948, nil] as [IMUFamily?])
    func anICM20948LeftInAnotherBankIsFound(family: IMUFamily?) throws {
        let run = Run()
        let address = SimulatedIMUBoard.attach(IMUModel.first(of: .icm20948)!, to: run.bus, motion: RestingMotion())
        try run.bus.writeRegister(address: address, register: 0x7F, value: 0x20)
        let source = run.source(Self.options(family: family))
        try run.run(source, seconds: 2)
        #expect(source.condition?.chip == "ICM-20948 at 0x68")
        #expect(run.samples.count > 300)
    }

    /// A chip a kernel driver has bound (dtoverlay=mpu6050) is not read: the fault says which
    /// driver and how to unbind it, the source keeps looking, and streams once it is unbound.
    @Test func aChipAKernelDriverHoldsIsLeftAloneUntilUnbound() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x68, motion: RestingMotion())
        run.bus.claims[0x68] = I2CClaim(driver: "inv-mpu6050-i2c", device: "1-0068")
        let source = run.source(Self.options(family: .mpu6050))
        var faultWhileBound: String?
        var samplesWhileBound = -1
        try run.run(source, seconds: 6) { t in
            if samplesWhileBound < 0, t >= 2 {
                faultWhileBound = source.condition?.fault
                samplesWhileBound = run.samples.count
                run.bus.claims[0x68] = nil
            }
        }
        #expect(samplesWhileBound == 0)
        let fault = try #require(faultWhileBound)
        #expect(fault.contains("inv-mpu6050-i2c") && fault.contains("echo 1-0068 | sudo tee /sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind"), "\(fault)")
        #expect(source.condition?.chip == "MPU-6050 at 0x68")
        #expect(run.samples.count > 300)
    }

    /// Another chip's answer at the free address does not hide the bound one: the fault names the
    /// claim and the silence, and the source keeps looking rather than stopping on a wrong identity.
    @Test func aBoundChipIsToldOverAnotherChipsAnswer() throws {
        let run = Run()
        SimulatedIMUBoard.attach(IMUModel.first(of: .itg3200)!, to: run.bus, address: 0x68, motion: RestingMotion())
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x69, motion: RestingMotion())
        run.bus.claims[0x69] = I2CClaim(driver: "inv-mpu6050-i2c", device: "1-0069")
        let source = run.source(Self.options(family: .mpu6050))
        try run.run(source, seconds: 1)
        let fault = source.condition?.fault ?? "none"
        #expect(fault.contains("no MPU-6050 answered at 0x68; 0x69 is not read, because the kernel's inv-mpu6050-i2c driver"), "\(fault)")
        #expect(fault.contains("; besides, /dev/i2c-1 at 0x68: expected MPU-6050"), "what the free address answered: \(fault)")
        #expect(run.samples.isEmpty)
    }

    /// Scanning passes over a bound chip for a free one.
    @Test func aScanPassesOverABoundChip() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x68, motion: RestingMotion())
        run.bus.claims[0x68] = I2CClaim(driver: "inv-mpu6050-i2c", device: "1-0068")
        SimulatedIMUBoard.attach(IMUModel.first(of: .lsm6dso)!, to: run.bus, address: 0x6A, motion: RestingMotion())
        let source = run.source(Self.options())
        try run.run(source, seconds: 2)
        #expect(source.condition?.chip == "LSM6DSO at 0x6a")
        #expect(run.samples.count > 300)
    }

    @Test func aDifferentChipThanConfiguredStopsWithBothNamed() {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x6A, motion: RestingMotion())
        let source = run.source(Self.options(family: .lsm6dso, address: 0x6A))
        #expect {
            try run.run(source, seconds: 1)
        } throws: { error in
            let error = error as? FallDetectError
            return error?.code == .invalidArgument && error?.message.contains("expected LSM6DSO") == true && error?.message.contains("found 0x") == true
        }
    }

    /// The daemon's source (`keepsTrying`) looks past a wrong chip as past a lost one: the fault
    /// names both, each attempt is stamped (so the watchdog keeps the keychain and the page up),
    /// and the configured chip, once it answers there, streams.
    @Test func aDifferentChipIsAFaultTheDaemonLooksPastUntilTheRightOneAnswers() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, address: 0x6A, motion: RestingMotion())
        var options = Self.options(family: .lsm6dso, address: 0x6A)
        options.keepsTrying = true
        let source = run.source(options)
        let lsm6dso = try #require(IMUModel.first(of: .lsm6dso))
        var faultBefore: String?
        var stamps = Set<Int64>()
        var swapped = false
        // Attempts 0.1 s apart doubling to 5 s: one comes at 11.3 s, after the swap.
        try run.run(source, seconds: 13) { t in
            if let stamp = source.condition?.searchedAtNanoseconds { stamps.insert(stamp) }
            if !swapped, t >= 8 {
                swapped = true
                faultBefore = source.condition?.fault
                SimulatedIMUBoard.attach(lsm6dso, to: run.bus, address: 0x6A, motion: RestingMotion())
            }
        }
        #expect(faultBefore?.contains("expected LSM6DSO") == true && faultBefore?.contains("found 0x") == true, "\(faultBefore ?? "none")")
        #expect(stamps.count > 20, "the wait between attempts is stamped too")
        #expect(run.log.notices.withLock { $0 }.filter { $0.contains("expected LSM6DSO") }.count == 1, "said once, not at each attempt")
        #expect(source.condition?.fault == nil && source.condition?.chip == "LSM6DSO at 0x6a")
        #expect(run.lastSecond > 180, "\(run.lastSecond) samples in the last second at 200 Hz")
    }

    /// No bus at the start (I2C not enabled yet, or an adapter still being probed at boot): the
    /// daemon's source says how to enable it and opens the path again until it is there.
    @Test func aBusMissingAtTheStartIsOpenedAgainByTheDaemon() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        nonisolated(unsafe) let bus = run.bus
        let opens = Mutex(0)
        let log = run.log
        var options = Self.options()
        options.keepsTrying = true
        let source = I2CSensorSource(
            options: options, clock: run.clock,
            openBus: { path throws(I2CError) in
                guard opens.withLock({ $0 += 1; return $0 }) > 3 else { throw I2CError(errno: ENOENT, bus: path, operation: "open") }
                return bus
            },
            notices: { text in log.notices.withLock { $0.append(text) } })
        try run.run(source, seconds: 3)
        #expect(opens.withLock { $0 } == 4)
        #expect(run.log.notices.withLock { $0 }.filter { $0.contains("raspi-config") }.count == 1)
        #expect(source.condition?.fault == nil && run.lastSecond > 180)
    }

    /// `record` and `probe` (no `keepsTrying`) stop only on a bus that never opened: one that
    /// went (ENODEV) before the first sample and is briefly missing (ENOENT) is waited for.
    @Test func anAdapterReenumeratingAtTheStartIsWaitedForWithoutKeepsTrying() throws {
        let run = Run()
        let dying = SimulatedI2CBus(name: "/dev/i2c-1", clock: run.clock)
        SimulatedIMUBoard.attach(Self.mpu6050, to: dying, motion: RestingMotion())
        dying.setFault(.adapterGone, at: 0x68)
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        nonisolated(unsafe) let buses = [dying, run.bus]
        let opens = Mutex(0)
        let source = I2CSensorSource(
            options: Self.options(), clock: run.clock,
            openBus: { path throws(I2CError) in
                let n = opens.withLock { $0 += 1; return $0 }
                if n == 2 { throw I2CError(errno: ENOENT, bus: path, operation: "open") }
                return buses[n == 1 ? 0 : 1]
            })
        try run.run(source, seconds: 2)
        #expect(opens.withLock { $0 } == 3)
        #expect(source.condition?.fault == nil && run.lastSecond > 180)
    }

    @Test func aFixedAxisMappingIsAppliedToEverySample() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion(gravity: SIMD3(1, 0, 0)))
        let axes = try #require(AxisMapping("x=+z,y=+y,z=+x"))
        let source = run.source(Self.options(axes: axes))
        try run.run(source, seconds: 1)
        let last = try #require(run.samples.last)
        #expect(abs(last.acceleration.z - 1) < 0.002 && abs(last.acceleration.x) < 0.002)
    }

    /// SCHED_FIFO asked for the sensor thread: granted or not, the log says which (this test runs
    /// the source on a thread of its own, so the test runner's threads keep their priority).
    @Test func realTimePriorityIsAskedAndTheAnswerSaid() throws {
        let run = Run()
        SimulatedIMUBoard.attach(Self.mpu6050, to: run.bus, motion: RestingMotion())
        var options = Self.options()
        options.realtimePriority = 5
        let source = run.source(options)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let unsafeRun = run
        let thread = Thread {
            try? unsafeRun.run(source, seconds: 0.5)
            done.signal()
        }
        thread.start()
        done.wait()
        let said = run.log.notices.withLock { $0 }.filter { $0.contains("real-time priority 5") }
        #expect(said.count == 1, "\(run.log.notices.withLock { $0 })")
        #expect(said.first.map { $0.contains("SCHED_FIFO") || $0.contains("LimitRTPRIO=5") } == true)
    }

    @Test func aMissingBusNamesItsPathAndErrno() {
        let source = I2CSensorSource(options: Self.options())
        let ring = SampleRing(capacity: 16)
        let producer = ring.makeProducer()
        #expect {
            _ = try source.run(into: producer, batchWritten: {}, shouldStop: { false })
        } throws: { error in
            let error = error as? FallDetectError
            return error?.code == .io && error?.path == "/dev/i2c-1" && error?.errno == ENOENT && error?.message.contains("raspi-config") == true
        }
    }
}
