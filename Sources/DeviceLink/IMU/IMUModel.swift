/// A chip people meet on a breakout board: how to recognise it and which driver reads it.
public struct IMUModel: Sendable, Hashable, CustomStringConvertible {
    /// The name printed on boards and data sheets, such as "MPU-6050".
    public var name: String
    public var family: IMUFamily
    /// The register that identifies it and the values it answers there.
    public var identityRegister: UInt8
    public var identityValues: [UInt8]
    /// The 7-bit addresses its address pin allows.
    public var addresses: [UInt8]
    /// Said by `detectord probe`: a clone, a sibling that reads the same, a caveat.
    public var note: String?

    public init(name: String, family: IMUFamily, identityRegister: UInt8, identityValues: [UInt8], addresses: [UInt8], note: String? = nil) {
        self.name = name
        self.family = family
        self.identityRegister = identityRegister
        self.identityValues = identityValues
        self.addresses = addresses
        self.note = note
    }

    public var description: String { name }
}
