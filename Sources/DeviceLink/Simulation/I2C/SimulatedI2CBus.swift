/// An I2C bus of simulated chips behind the same `I2CBus` protocol the Linux bus implements, so
/// drivers run unchanged. It counts transactions and bytes (the deterministic figures of
/// `bench --i2c`) and injects faults per address or for the whole bus.
public final class SimulatedI2CBus: I2CBus {
    public struct Statistics: Sendable, Equatable {
        public var reads = 0
        public var writes = 0
        public var bytesRead = 0
        public var bytesWritten = 0
        public var failures = 0

        public init() {}

        public var transactions: Int { reads + writes }
        /// Bytes on the wire: the data, one address byte per transaction and the register byte
        /// written before each read or write.
        public var wireBytes: Int { bytesRead + bytesWritten + 2 * reads + 2 * writes }
    }

    public let name: String
    public let clock: any IMUClock
    public let counters: SimulatedBusCounters
    public var statistics: Statistics { counters.statistics }
    private var devices: [UInt8: any SimulatedI2CDevice] = [:]
    private var faults: [UInt8: SimulatedI2CFault] = [:]
    /// Lasting faults of one register (address << 8 | register): a chip that answers its identity
    /// and takes its set-up but whose data path fails (a damaged FIFO, a half-seated connector).
    private var registerFaults: [UInt16: SimulatedI2CFault] = [:]
    /// A fault of the whole bus (a hung bus), whatever the address.
    public var busFault: SimulatedI2CFault?
    /// Faults that happen once, on the next transfers, in order (nil address: any).
    private var scheduled: [(address: UInt8?, fault: SimulatedI2CFault)] = []
    /// Faults in force over a span of the clock's time (a demonstration's unplug); an unplug
    /// power-cycles the chip when it ends.
    private var timed: [(fault: SimulatedI2CFault, address: UInt8?, from: Int64, until: Int64, over: Bool)] = []
    /// Reads that return late, once each, in order: the data is the chip's at the start of the
    /// read, the return is later.
    private var stalls: [(address: UInt8, register: UInt8, nanoseconds: Int64)] = []
    /// Reads that start late, once each, in order: the thread held up before the transfer, so the
    /// data is the chip's after the wait.
    private var delays: [(address: UInt8, register: UInt8, nanoseconds: Int64)] = []

    public init(name: String = "simulated-i2c", clock: any IMUClock = SystemIMUClock(), counters: SimulatedBusCounters = SimulatedBusCounters()) {
        self.name = name
        self.clock = clock
        self.counters = counters
    }

    public func attach(_ device: any SimulatedI2CDevice, at address: UInt8) {
        devices[address] = device
    }

    public func device(at address: UInt8) -> (any SimulatedI2CDevice)? { devices[address] }

    /// Sets or clears a lasting fault of one peripheral. Clearing `.unplugged` power-cycles it.
    public func setFault(_ fault: SimulatedI2CFault?, at address: UInt8) {
        if faults[address] == .unplugged, fault == nil { devices[address]?.powerCycle() }
        faults[address] = fault
    }

    /// Sets or clears a lasting fault of one register of one peripheral.
    public func setFault(_ fault: SimulatedI2CFault?, at address: UInt8, register: UInt8) {
        registerFaults[UInt16(address) << 8 | UInt16(register)] = fault
    }

    /// The next transfer (to `address`, or any) fails once with `fault`.
    public func failOnce(_ fault: SimulatedI2CFault, at address: UInt8? = nil) {
        scheduled.append((address, fault))
    }

    /// The next read of `register` at `address` returns `nanoseconds` after it took the chip's
    /// data, as when the reading thread is preempted or the chip stretches the clock mid-transfer.
    public func stallOnce(nanoseconds: Int64, at address: UInt8, register: UInt8) {
        stalls.append((address, register, nanoseconds))
    }

    /// The next read of `register` at `address` waits `nanoseconds` before it takes the chip's
    /// data, as when the reading thread is preempted just before the transfer.
    public func delayOnce(nanoseconds: Int64, at address: UInt8, register: UInt8) {
        delays.append((address, register, nanoseconds))
    }

    /// `fault` in force from `from` until `until` (the clock's nanoseconds), for `address` or
    /// (nil) the whole bus.
    public func scheduleFault(_ fault: SimulatedI2CFault, at address: UInt8?, from: Int64, until: Int64) {
        timed.append((fault, address, from, until, false))
    }

    /// The timed fault in force for `address` now; ends those that are over.
    private func timedFault(for address: UInt8) -> SimulatedI2CFault? {
        guard !timed.isEmpty else { return nil }
        let now = clock.nowNanoseconds()
        var active: SimulatedI2CFault?
        for index in timed.indices {
            let entry = timed[index]
            if now >= entry.until {
                if !entry.over {
                    timed[index].over = true
                    if entry.fault == .unplugged {
                        let affected = entry.address.map { [devices[$0]].compactMap { $0 } } ?? Array(devices.values)
                        for device in affected { device.powerCycle() }
                    }
                }
            } else if now >= entry.from, entry.address == nil || entry.address == address {
                active = entry.fault
            }
        }
        return active
    }

    /// Kernel drivers bound to addresses, as sysfs would show them (see `I2CClaim`).
    public var claims: [UInt8: I2CClaim] = [:]

    public func claim(address: UInt8) -> I2CClaim? { claims[address] }

    public func resetStatistics() { counters.reset() }

    private func check(_ address: UInt8, register: UInt8, operation: String) throws(I2CError) -> any SimulatedI2CDevice {
        var fault = busFault ?? faults[address] ?? timedFault(for: address) ?? registerFaults[UInt16(address) << 8 | UInt16(register)]
        if fault == nil, let index = scheduled.firstIndex(where: { $0.address == nil || $0.address == address }) {
            fault = scheduled.remove(at: index).fault
        }
        if let fault {
            counters.update { $0.failures += 1 }
            throw I2CError(errno: fault.errno, bus: name, operation: operation, address: address, register: register)
        }
        guard let device = devices[address] else {
            counters.update { $0.failures += 1 }
            throw I2CError(errno: SimulatedI2CFault.nack.errno, bus: name, operation: operation, address: address, register: register)
        }
        return device
    }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if let index = delays.firstIndex(where: { $0.address == address && $0.register == register }) {
            clock.sleep(nanoseconds: delays.remove(at: index).nanoseconds)
        }
        let device = try check(address, register: register, operation: "read \(buffer.count) bytes")
        device.read(register: register, into: buffer)
        counters.update {
            $0.reads += 1
            $0.bytesRead += buffer.count
        }
        if let index = stalls.firstIndex(where: { $0.address == address && $0.register == register }) {
            clock.sleep(nanoseconds: stalls.remove(at: index).nanoseconds)
        }
    }

    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError) {
        let device = try check(address, register: register, operation: "write \(bytes.count) bytes")
        device.write(register: register, bytes: bytes)
        counters.update {
            $0.writes += 1
            $0.bytesWritten += bytes.count
        }
    }
}
