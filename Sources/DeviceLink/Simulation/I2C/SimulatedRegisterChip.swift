/// The common part of a simulated chip: a register file with power-on values, a register pointer
/// that auto-increments unless the chip says otherwise, and hooks where a chip model adds its
/// behaviour (FIFO ports, reset bits, data that changes with time). Chip models subclass it.
open class SimulatedRegisterChip: SimulatedI2CDevice {
    public let clock: any IMUClock
    /// The motion the chip measures.
    public var motion: any SimulatedMotion
    /// The chip's real output rate relative to its nominal one: 1.02 runs 2 % fast, as a cheap
    /// board's oscillator may.
    public var rateFactor: Double
    public var registers: [UInt8]
    private let powerOn: [UInt8: UInt8]

    public init(powerOn: [UInt8: UInt8], motion: any SimulatedMotion, clock: any IMUClock, rateFactor: Double = 1) {
        self.powerOn = powerOn
        self.motion = motion
        self.clock = clock
        self.rateFactor = rateFactor
        registers = [UInt8](repeating: 0, count: 256)
        loadPowerOnValues()
    }

    /// Registers back to their power-on values (reset bit or power cycle).
    public func loadPowerOnValues() {
        registers = [UInt8](repeating: 0, count: 256)
        for (register, value) in powerOn { registers[Int(register)] = value }
    }

    open func powerCycle() {
        loadPowerOnValues()
    }

    /// Brings time-driven state (the FIFO, the data registers) up to the clock; called before
    /// every transaction.
    open func advance(toNanoseconds now: Int64) {}

    /// The byte at `register` for a read (FIFO ports pop here).
    open func readByte(at register: UInt8) -> UInt8 { registers[Int(register)] }

    /// Where the pointer goes after reading or writing `register`.
    open func register(after register: UInt8) -> UInt8 { register &+ 1 }

    /// Called after a read transaction of `count` bytes from `register`.
    open func didRead(from register: UInt8, count: Int) {}

    /// Stores a written byte; chips override to act on command and reset bits.
    open func didWrite(_ value: UInt8, to register: UInt8) { registers[Int(register)] = value }

    public func read(register start: UInt8, into buffer: UnsafeMutableRawBufferPointer) {
        advance(toNanoseconds: clock.nowNanoseconds())
        var register = start
        for index in 0..<buffer.count {
            buffer[index] = readByte(at: register)
            register = self.register(after: register)
        }
        didRead(from: start, count: buffer.count)
    }

    public func write(register start: UInt8, bytes: [UInt8]) {
        advance(toNanoseconds: clock.nowNanoseconds())
        var register = start
        for byte in bytes {
            didWrite(byte, to: register)
            register = self.register(after: register)
        }
    }

    /// A value in g or °/s as the chip's signed count at `lsbPerUnit`, saturated at the range the
    /// chip's registers can hold (a fall harder than the range clips, as on the real part).
    public static func counts(_ value: Float, lsbPerUnit: Float, range: Float, bits: Int = 16) -> Int16 {
        let limit = Float(min(Int(Int16.max), (1 << (bits - 1)) - 1))
        let clipped = max(-range, min(range, value)) * lsbPerUnit
        return Int16(max(-limit - 1, min(limit, clipped.rounded())))
    }

    public static func bigEndian(_ value: Int16) -> [UInt8] {
        let bits = UInt16(bitPattern: value)
        return [UInt8(bits >> 8), UInt8(bits & 0xFF)]
    }

    public static func littleEndian(_ value: Int16) -> [UInt8] {
        let bits = UInt16(bitPattern: value)
        return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
    }
}
