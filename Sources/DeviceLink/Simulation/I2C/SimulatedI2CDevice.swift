/// A peripheral on `SimulatedI2CBus`: it answers transactions as the real chip does, register
/// pointer rules included.
public protocol SimulatedI2CDevice: AnyObject {
    /// One combined write-then-read transaction starting at `register`.
    func read(register: UInt8, into buffer: UnsafeMutableRawBufferPointer)
    /// One write transaction: `bytes` from `register` on.
    func write(register: UInt8, bytes: [UInt8])
    /// Power lost and back (unplug and replug): registers return to their power-on values.
    func powerCycle()
}
