import CBluetooth
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Connects to a keychain over an L2CAP LE socket on the ATT fixed channel (CID 4), the way
/// BlueZ's btgatt-client does, with security level low: iTags neither pair nor encrypt, and
/// asking for more makes the kernel drop the link (hardware.md §4.3). The connect is non-blocking
/// with our own deadline instead of the kernel's 40 s.
public struct L2CAPConnector: KeychainConnector {
    public let address: BluetoothAddress
    public let addressType: BluetoothAddressType

    public init(address: BluetoothAddress, addressType: BluetoothAddressType) {
        self.address = address
        self.addressType = addressType
    }

    public var summary: String { "\(address) (\(addressType.rawValue))" }

    /// The ATT fixed channel (`BT_ATT_CID` in BlueZ's att-types.h; not in libbluetooth's headers).
    static let attChannel: UInt16 = 4

    public func connect(timeout: Double) async throws(ATTError) -> ATTSocket {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw .system(errno: errno, operation: "socket(AF_BLUETOOTH, L2CAP)") }
        var ok = false
        defer { if !ok { close(fd) } }
        var local = sockaddr_l2()
        local.l2_family = sa_family_t(AF_BLUETOOTH)
        local.l2_cid = Self.attChannel.littleEndian
        local.l2_bdaddr_type = UInt8(BDADDR_LE_PUBLIC)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }
        guard bound == 0 else {
            throw .system(errno: errno, operation: "bind(L2CAP LE)")
        }
        var security = bt_security(level: UInt8(BT_SECURITY_LOW), key_size: 0)
        // EINVAL means the level is already satisfied (hardware.md §4.3); anything else is real.
        if setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) != 0, errno != EINVAL {
            throw .system(errno: errno, operation: "setsockopt(BT_SECURITY)")
        }
        var remote = sockaddr_l2()
        remote.l2_family = sa_family_t(AF_BLUETOOTH)
        remote.l2_cid = Self.attChannel.littleEndian
        remote.l2_bdaddr = bdaddr_t(b: address.bytes)
        remote.l2_bdaddr_type = UInt8(addressType == .public ? BDADDR_LE_PUBLIC : BDADDR_LE_RANDOM)
        let started = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) } }
        if started != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN else { throw .system(errno: errno, operation: "connect to \(address)") }
            try await waitConnected(fd, timeout: timeout)
        }
        ok = true
        return try ATTSocket(adopting: fd)
    }

    /// Waits for the connect to finish without holding a thread: short polls with sleeps between.
    private func waitConnected(_ fd: Int32, timeout: Double) async throws(ATTError) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
            if poll(&fds, 1, 0) > 0 {
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code == 0 { return }
                throw .system(errno: code, operation: "connect to \(address)")
            }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { throw .closed }
        }
        throw .system(errno: ETIMEDOUT, operation: "connect to \(address)")
    }

    static let adapterDown = "the Bluetooth adapter is down: `btmgmt power on`, and check `rfkill list`"
    static let noBluetooth = "this kernel has no Bluetooth support"

    /// The reason names a missing or switched-off adapter rather than a keychain out of reach:
    /// the page says "adapter off", which the wearer can fix.
    public static func meansAdapterOff(_ reason: String) -> Bool {
        reason.contains(adapterDown) || reason.contains(noBluetooth)
    }

    /// What to do about a failed connect, for the log and `pair`.
    public static func guidance(_ error: ATTError) -> String? {
        guard case .system(let code, _) = error else { return nil }
        switch code {
        case EAFNOSUPPORT: return noBluetooth
        case ETIMEDOUT: return "the keychain did not answer: out of range, switched off (hold its button to switch it on) or connected to another phone"
        case ECONNREFUSED: return "refused: check the address type (public or random) or wake the keychain"
        case EBUSY: return "another program (bluetoothd, a phone app) holds the keychain's link: see docs/keychain.md"
        case EHOSTUNREACH, ENETDOWN: return adapterDown
        case EACCES, EPERM: return "the keychain asked for pairing, which this daemon does not do"
        default: return nil
        }
    }
}
