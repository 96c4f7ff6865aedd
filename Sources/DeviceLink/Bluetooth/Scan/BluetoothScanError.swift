#if canImport(Glibc)
import Glibc
#endif

/// A scan that could not run, with what to do about it.
public struct BluetoothScanError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errno: Int32
    public var operation: String
    public var adapter: String

    public init(errno: Int32, operation: String, adapter: String) {
        self.errno = errno
        self.operation = operation
        self.adapter = adapter
    }

    public var guidance: String {
        switch errno {
        case EAFNOSUPPORT: "this kernel has no Bluetooth support"
        case ENODEV: "no Bluetooth adapter found: check `btmgmt info` and `rfkill list`"
        case ENETDOWN: "adapter \(adapter) is down: `btmgmt power on` (or `hciconfig \(adapter) up`), and check `rfkill list`"
        case EPERM, EACCES: "scanning needs CAP_NET_RAW and CAP_NET_ADMIN: run as root, or give the unit AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN"
        case EIO, EBUSY: "the controller refused: another program is scanning (bluetoothd discovery, `bluetoothctl scan on`) or uses extended scanning; stop it and try again"
        case ETIMEDOUT: "the controller did not answer the scan command"
        default: "the Bluetooth adapter could not scan"
        }
    }

    public var description: String {
        "\(operation) on \(adapter): \(String(cString: strerror(errno))) (errno \(errno)): \(guidance)"
    }
}
