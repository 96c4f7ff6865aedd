/// A driver failure, with the bus and chip it concerns.
public enum IMUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bus transfer failed.
    case bus(I2CError)
    /// The identity register did not hold what the chip answers.
    case wrongIdentity(chip: String, bus: String, address: UInt8, register: UInt8, found: UInt8, expected: [UInt8])
    /// The chip cannot do what the request asked (a rate above its maximum, a gyroscope it lacks).
    case unsupported(chip: String, setting: String, reason: String)
    /// Nothing (or nothing known) answered where the chip should be: not plugged in yet, or
    /// unplugged. The source keeps looking.
    case absent(chip: String, bus: String, addresses: [UInt8])
    /// No free address answered, and a kernel driver has bound this one (see `I2CClaim`).
    /// `besides`: what a free address answered instead, if anything (an unknown clone's identity).
    case claimed(chip: String, bus: String, address: UInt8, claim: I2CClaim, unanswered: [UInt8], besides: String?)
    /// The chip did not come out of reset or start in time.
    case notReady(chip: String, bus: String, address: UInt8, detail: String)

    public var description: String {
        switch self {
        case .bus(let error): error.description
        case let .wrongIdentity(chip, bus, address, register, found, expected):
            "\(bus) at 0x\(String(address, radix: 16)): expected \(chip) (register 0x\(String(register, radix: 16, uppercase: true)) = "
                + expected.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " or ")
                + "), found 0x\(String(found, radix: 16, uppercase: true))"
        case let .unsupported(chip, setting, reason): "\(chip): \(setting): \(reason)"
        case let .absent(chip, bus, addresses):
            "\(bus): no \(chip) answered at " + addresses.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")
        case let .claimed(chip, bus, address, claim, unanswered, besides):
            // The bound chip may be another (a clock): the free addresses' silence, or what one
            // answered instead, is said too.
            (unanswered.isEmpty ? "\(bus): " : "\(bus): no \(chip) answered at " + unanswered.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "; ")
                + "0x\(String(address, radix: 16)) is not read, because \(claim)" + (besides.map { "; besides, \($0)" } ?? "")
        case let .notReady(chip, bus, address, detail): "\(bus) at 0x\(String(address, radix: 16)): \(chip) \(detail)"
        }
    }

    /// The underlying bus error, when there is one.
    public var busError: I2CError? {
        if case .bus(let error) = self { return error }
        return nil
    }

    /// A fault that may clear (unplug, hung bus): the streamer backs off and re-probes.
    public var isTransient: Bool { busError?.isTransient ?? false }
}
