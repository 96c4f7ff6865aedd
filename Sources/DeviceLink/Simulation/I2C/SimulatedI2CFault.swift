#if canImport(Glibc)
import Glibc
#endif

/// A fault a simulated peripheral or bus shows on demand, with the errno the Raspberry Pi's
/// controller (i2c-bcm2835) gives for it.
public enum SimulatedI2CFault: Sendable, Equatable {
    /// The peripheral does not acknowledge: EREMOTEIO, as for a wrong address.
    case nack
    /// Unplugged: EREMOTEIO until cleared, and the chip comes back powered on from scratch.
    case unplugged
    /// SDA held low: every transfer on the bus times out (ETIMEDOUT).
    case hungBus
    /// Another master won arbitration: EAGAIN.
    case arbitrationLost
    /// A clock-stretch timeout or a short transfer: EIO.
    case transferFailed
    /// The adapter itself went (a USB bridge unplugged, its driver unbound): ENODEV on this open
    /// bus for good; only the bus opened again reaches the chip.
    case adapterGone

    var errno: Int32 {
        switch self {
        case .nack, .unplugged: EREMOTEIO
        case .hungBus: ETIMEDOUT
        case .arbitrationLost: EAGAIN
        case .transferFailed: EIO
        case .adapterGone: ENODEV
        }
    }
}
