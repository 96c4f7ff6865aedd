import FallDetect
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The live daemon's IMU on an I2C bus. On its own thread it finds the chip (by its identity
/// register, or as configured), resets and configures it, and drains it at the watermark (or
/// polls it) into the ring, stamping samples from the drain time back by FIFO position at the
/// measured rate. A chip that stops answering (unplugged, a hung bus) is a fault at the next
/// drain, tens of milliseconds later; the source then looks for it again with backoff and, when it
/// answers, initialises it again and streams on by itself, recording the gap with its length.
public final class I2CSensorSource: SensorSource {
    public let options: I2CSensorOptions
    public var busPath: String { options.busPath }
    public var sampleRate: Double { options.request.rateHz }
    public var accelerometerRange: Float { options.request.accelerometerRange }
    public let summary: String
    private let clock: any IMUClock
    /// Opens the bus: Linux's i2c-dev on a device, a simulated bus in tests and demonstrations.
    private let openBus: @Sendable (String) throws(I2CError) -> any I2CBus
    private let onNotice: @Sendable (String) -> Void
    private let onGap: @Sendable (RecordedEvent) -> Void
    private let onConfigured: @Sendable (IMUConfiguration) -> Void
    private let state: Mutex<SensorCondition>

    public init(
        options: I2CSensorOptions, clock: any IMUClock = SystemIMUClock(),
        openBus: @escaping @Sendable (String) throws(I2CError) -> any I2CBus = { path throws(I2CError) in try LinuxI2CBus(path: path) },
        notices: @escaping @Sendable (String) -> Void = { _ in }, gaps: @escaping @Sendable (RecordedEvent) -> Void = { _ in },
        configured: @escaping @Sendable (IMUConfiguration) -> Void = { _ in }
    ) {
        self.options = options
        self.clock = clock
        self.openBus = openBus
        onNotice = notices
        onGap = gaps
        onConfigured = configured
        state = Mutex(SensorCondition(nominalRateHz: options.request.rateHz))
        let chip = options.family.flatMap(IMUModel.first(of:))?.name ?? "I2C IMU"
        summary = "\(chip) on \(options.busPath)" + (options.address.map { " at \(Self.hex($0))" } ?? "")
    }

    public var condition: SensorCondition? { state.withLock { $0 } }

    public func run(
        into producer: borrowing SampleRing.Producer, batchWritten: () -> Void, shouldStop: () -> Bool
    ) throws(FallDetectError) -> SensorSourceEnd {
        applyRealtimePriority()
        // nil: the bus is to be opened (again) before the next attempt. After ENODEV the adapter
        // went (a USB bridge unplugged, its driver unbound and bound again), and the old fd never
        // reaches it again; the path opened anew does, once it is back.
        var bus: (any I2CBus)?
        // Once the bus has opened, a later failure to open it (an adapter on its way back) is
        // looked past even without `keepsTrying`.
        var everOpened = false
        var stream: IMUStream?
        var previous: IMUStream?
        var lostBecause: String?
        // Whether `stream` has drained once since it was set up. A chip that answers its identity
        // and takes its set-up but fails every drain is looked for again with backoff: set up
        // again at once, it would be lost and found many times a second, each time told.
        var drained = false
        var retry = options.firstRetrySeconds
        var gaps: [RecordedEvent] = []
        defer { if let stream { try? stream.driver.stop() } }
        /// A fault that the source looks past (with `keepsTrying`, any of them): said when it
        /// changes, then the next attempt after the backoff.
        func lookAgain(after fault: String) {
            let changed = state.withLock { s in
                defer { s.fault = fault }
                return s.fault != fault
            }
            if changed { onNotice("\(fault); trying again every \(Self.seconds(options.lastRetrySeconds)) at most") }
            wait(seconds: retry, shouldStop: shouldStop)
            retry = min(options.lastRetrySeconds, retry * 2)
        }
        let endAt = options.endAfterSeconds.map { clock.nowNanoseconds() + Int64($0 * 1e9) }
        while !shouldStop() {
            if let endAt, clock.nowNanoseconds() >= endAt { return .exhausted }
            guard let current = stream else {
                let attempt = MonotonicTime.nowNanoseconds()
                state.withLock { $0.searchedAtNanoseconds = attempt }
                let opened: any I2CBus
                if let bus {
                    opened = bus
                } else {
                    do throws(I2CError) {
                        opened = try openBus(options.busPath)
                        bus = opened
                        everOpened = true
                    } catch {
                        // At the start it ends the source unless told to keep trying; after a
                        // loss the adapter may still be on its way back.
                        if !everOpened, !options.keepsTrying {
                            throw FallDetectError(.io, Self.openFailure(error), path: options.busPath, errno: error.errno)
                        }
                        lookAgain(after: Self.openFailure(error))
                        continue
                    }
                }
                do throws(IMUError) {
                    let connected = try connect(opened, resumingAfter: lostBecause)
                    if let previous { connected.continueTimestamps(from: previous) }
                    // The fault, the search and the backoff end with the first drain.
                    stream = connected
                    drained = false
                } catch {
                    var lasting: FallDetectError?
                    if case .bus(let busError) = error, !busError.isTransient {
                        lasting = FallDetectError(.io, busError.description, path: options.busPath, errno: busError.errno)
                    }
                    // A wrong identity at the start is a wrong setting; after a loss it is as
                    // likely a garbled read of the chip that was there, so it is looked for again.
                    if case .wrongIdentity = error, lostBecause == nil {
                        lasting = FallDetectError(.invalidArgument, error.description, path: options.busPath)
                    }
                    if case .unsupported = error { lasting = FallDetectError(.invalidArgument, error.description, path: options.busPath) }
                    if let lasting, !options.keepsTrying { throw lasting }
                    // An adapter gone, or one whose error no retry on its fd clears, is opened anew.
                    if error.busError?.errno == ENODEV || error.busError.map({ !$0.isTransient }) == true { bus = nil }
                    lookAgain(after: error.description)
                }
                continue
            }
            clock.sleep(nanoseconds: current.drainInterval)
            do throws(IMUError) {
                // The drain runs outside the lock, so a status request never waits on the bus (a hung
                // one takes up to a second to time out). Only this thread writes the condition.
                var condition = state.withLock { $0 }
                let pushed = try current.cycle(into: producer, condition: &condition, gaps: &gaps)
                if !drained {
                    drained = true
                    retry = options.firstRetrySeconds
                    condition.fault = nil
                    condition.searchedAtNanoseconds = nil
                    if lostBecause != nil {
                        condition.recoveries += 1
                        onNotice("\(current.configuration.model) answers again; streaming resumes")
                    }
                }
                state.withLock { $0 = condition }
                if pushed > 0 { batchWritten() }
                for gap in gaps {
                    onGap(gap)
                    onNotice("gap of \(gap.value) samples: \(gap.text)")
                }
                gaps.removeAll(keepingCapacity: true)
            } catch {
                guard error.isTransient || options.keepsTrying else {
                    throw FallDetectError(.io, error.description, path: options.busPath, errno: error.busError?.errno)
                }
                let fault = "\(current.configuration.model) lost: \(error)"
                state.withLock { $0.busErrors += 1 }
                lostBecause = "sensor lost (\(error.busError.map { String(cString: strerror($0.errno)) } ?? "bus error"))"
                if error.busError?.errno == ENODEV || !error.isTransient { bus = nil }
                previous = current
                stream = nil
                if drained {
                    // Lost while streaming: told at once, and looked for again at once.
                    state.withLock { $0.fault = fault }
                    onNotice(fault)
                } else {
                    lookAgain(after: fault)
                }
            }
        }
        return .stopped
    }

    /// The bus could not be opened: ENOENT on a Pi is most often I2C left disabled.
    static func openFailure(_ error: I2CError) -> String {
        error.description + (error.errno == ENOENT ? " (is I2C enabled? raspi-config, or dtparam=i2c_arm=on)" : "")
    }

    /// Finds, resets, configures and starts the chip.
    private func connect(_ bus: any I2CBus, resumingAfter reason: String?) throws(IMUError) -> IMUStream {
        var found: (model: IMUModel, address: UInt8)?
        // An address a kernel driver has bound is not ours to read, but another chip may be the
        // one bound (a DS3231 clock's rtc-ds1307 at 0x68): the claim is told only if no IMU answers,
        // as a fault the source keeps looking past (the wearer's SOS button works on meanwhile).
        let claimed = options.addresses.compactMap { address in bus.claim(address: address).map { (address, $0) } }
        let addresses = options.addresses.filter { address in !claimed.contains { $0.0 == address } }
        var mismatch: IMUError?
        if let family = options.family, let first = IMUModel.first(of: family) {
            // A family holds siblings and clones (an MPU-9250 or a 0x98 clone for "mpu6500", an
            // LSM6DSL for "lsm6ds3"): the answer picks the model, whose driver settings differ.
            let siblings = (IMUModel.catalog + IMUModel.configured).filter { $0.family == family }
            for address in addresses {
                var value: UInt8
                do {
                    value = try bus.readRegister(address: address, register: first.identityRegister)
                    // An ICM-20948 left in another register bank answers for that bank.
                    if family == .icm20948, !first.identityValues.contains(value), try IMUIdentity.returnToBankZero(bus, at: address) {
                        value = try bus.readRegister(address: address, register: first.identityRegister)
                    }
                } catch where error.isDeviceGone && !error.isAdapterGone {
                    continue
                } catch {
                    throw .bus(error)
                }
                guard let model = siblings.first(where: { $0.identityValues.contains(value) && $0.addresses.contains(address) }) else {
                    // Another chip may share the address (a DS3231 clock at 0x68): the next one is tried.
                    mismatch = mismatch ?? .wrongIdentity(
                        chip: first.name, bus: bus.name, address: address, register: first.identityRegister, found: value,
                        expected: siblings.flatMap(\.identityValues))
                    continue
                }
                found = (model, address)
                break
            }
            // A bound address is the likelier home of the chip than another chip's answer.
            if found == nil, claimed.isEmpty, let mismatch { throw mismatch }
        } else {
            do {
                found = try IMUIdentity.scan(bus, addresses: addresses).first.map { ($0.model, $0.address) }
            } catch {
                throw .bus(error)
            }
        }
        guard let (model, address) = found else {
            let chip = options.family.flatMap(IMUModel.first(of:))?.name ?? "known IMU"
            if let (address, claim) = claimed.first {
                throw .claimed(chip: chip, bus: bus.name, address: address, claim: claim, unanswered: addresses, besides: mismatch?.description)
            }
            throw .absent(chip: chip, bus: bus.name, addresses: options.addresses)
        }
        let driver = IMUDriverFactory.make(model: model, bus: bus, address: address, clock: clock)
        try driver.reset()
        let configuration = try driver.configure(options.request)
        try driver.start()
        let chip = "\(model.name) at \(Self.hex(address))"
        state.withLock { s in
            s.chip = chip
            s.nominalRateHz = configuration.rateHz
        }
        // Every time it is set up: the detector builds its windows and filters for the rate and
        // ranges the chip really has.
        onConfigured(configuration)
        if abs(configuration.rateHz - options.request.rateHz) > 0.01 * options.request.rateHz {
            onNotice("\(model.name) has no \(Self.seconds(options.request.rateHz, unit: "Hz")) rate; it runs at \(Self.seconds(configuration.rateHz, unit: "Hz"))")
        }
        if reason == nil {
            onNotice("\(chip): ±\(Int(configuration.accelerometerRange)) g, ±\(Int(configuration.gyroscopeRange)) °/s, \(Self.seconds(configuration.rateHz, unit: "Hz")), "
                     + (configuration.usesFIFO ? "FIFO of \(configuration.fifoCapacity) samples drained every \(configuration.watermark)" : "polled"))
        }
        return IMUStream(driver: driver, configuration: configuration, clock: clock, axes: options.axes, resumingAfter: reason)
    }

    /// Sleeps `seconds` in slices of at most 50 ms, so a stop request is seen.
    /// Waits between attempts to find the chip, stamping the search as alive at each slice: on a
    /// simulator's slowed clock 5 s can be minutes, and only a stuck bus transfer should age it.
    private func wait(seconds: Double, shouldStop: () -> Bool) {
        var left = Int64(seconds * 1e9)
        while left > 0, !shouldStop() {
            let slice = min(left, 50_000_000)
            clock.sleep(nanoseconds: slice)
            left -= slice
            let now = MonotonicTime.nowNanoseconds()
            state.withLock { $0.searchedAtNanoseconds = now }
        }
    }

    /// SCHED_FIFO for this thread, when asked; says plainly when it is not permitted.
    private func applyRealtimePriority() {
        guard let priority = options.realtimePriority else { return }
        var parameters = sched_param(sched_priority: priority)
        let result = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if result == 0 {
            onNotice("sensor thread runs at real-time priority \(priority) (SCHED_FIFO)")
        } else {
            onNotice("real-time priority \(priority) not permitted (\(String(cString: strerror(result)))); the sensor thread runs at normal priority. "
                     + "Run as root, or give the service LimitRTPRIO=\(priority) or CAP_SYS_NICE")
        }
    }

    static func hex(_ address: UInt8) -> String { "0x" + String(address, radix: 16) }

    /// Two decimals at most: a chip's 1000/3 Hz reads "333.33 Hz", not all sixteen digits.
    static func seconds(_ value: Double, unit: String = "s") -> String {
        let shown = (value * 100).rounded() / 100
        guard shown.isFinite, abs(shown) < 1e15 else { return "\(value) \(unit)" }
        return shown == shown.rounded() ? "\(Int(shown)) \(unit)" : "\(shown) \(unit)"
    }
}
