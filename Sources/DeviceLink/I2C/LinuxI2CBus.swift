import CI2C
#if canImport(Glibc)
import Glibc
#endif

/// A Linux i2c-dev bus (`/dev/i2c-1` on a Raspberry Pi). Reads are one `I2C_RDWR` transaction (a
/// register write, a repeated START, then up to 8192 bytes: a whole FIFO drain); a controller
/// that cannot do that gets libi2c's SMBus block reads, 32 bytes at a time. EINTR is retried here
/// and nowhere else.
public final class LinuxI2CBus: I2CBus {
    public let path: String
    public var name: String { path }
    private let fd: Int32
    /// The address the fd is bound to (`I2C_SLAVE`), for the SMBus calls.
    private var selected: UInt8?
    /// Set after the adapter refused `I2C_RDWR` once (EOPNOTSUPP): SMBus from then on.
    private var smbusOnly = false
    /// i2c-dev's cap on one message (drivers/i2c/i2c-dev.c).
    static let maximumMessage = 8192

    public init(path: String) throws(I2CError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw I2CError(errno: Glibc.errno, bus: path, operation: "open") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Selects the peripheral that the SMBus transfers address.
    public func select(address: UInt8) throws(I2CError) {
        if selected == address { return }
        try Self.retryingEINTR { ci2c_set_address(fd, UInt(address)) } orThrow: { errno in
            I2CError(errno: errno, bus: path, operation: I2CError.selectOperation, address: address)
        }
        selected = address
    }

    /// Reads one register of the selected peripheral through libi2c.
    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        var value: Int32 = 0
        // libi2c 4.3 returns -errno on failure (and sets errno too).
        try Self.retryingEINTR { value = i2c_smbus_read_byte_data(fd, register); return value < 0 ? -1 : 0 } orThrow: { _ in
            I2CError(errno: -value, bus: path, operation: "read", address: selected, register: register)
        }
        return UInt8(truncatingIfNeeded: value)
    }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard buffer.count > 0 else { return }
        guard buffer.count <= Self.maximumMessage else {
            throw I2CError(errno: EINVAL, bus: path, operation: "read of \(buffer.count) bytes (at most \(Self.maximumMessage))", address: address, register: register)
        }
        if !smbusOnly {
            var pointer = register
            let status = withUnsafeMutablePointer(to: &pointer) { registerPointer in
                var messages = [
                    i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: registerPointer),
                    i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(buffer.count),
                            buf: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                ]
                return messages.withUnsafeMutableBufferPointer { list in
                    var data = i2c_rdwr_ioctl_data(msgs: list.baseAddress, nmsgs: 2)
                    return Self.callRetryingEINTR { ci2c_rdwr(fd, &data) }
                }
            }
            if status >= 0 { return }
            guard status == -EOPNOTSUPP else {
                throw I2CError(errno: -status, bus: path, operation: "read \(buffer.count) bytes", address: address, register: register)
            }
            smbusOnly = true
        }
        try select(address: address)
        // libi2c copies as many bytes as the adapter says came, up to 32: a block of 32 always,
        // so a wayward count cannot write past a shorter last chunk.
        var block = [UInt8](repeating: 0, count: 32)
        var offset = 0
        while offset < buffer.count {
            let length = min(32, buffer.count - offset)
            var got: Int32 = 0
            // Every block starts at `register`: right for a FIFO port, the only read longer than
            // 32 bytes the drivers make.
            let start = register
            try Self.retryingEINTR {
                got = block.withUnsafeMutableBufferPointer { i2c_smbus_read_i2c_block_data(fd, start, UInt8(length), $0.baseAddress) }
                return got < 0 ? -1 : 0
            } orThrow: { _ in
                I2CError(errno: -got, bus: path, operation: "read \(length) bytes", address: address, register: start)
            }
            // Fewer bytes than asked would leave stale ones in the buffer.
            guard Int(got) == length else {
                throw I2CError(errno: EIO, bus: path, operation: "read \(length) bytes (\(got) came)", address: address, register: start)
            }
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + length)]).copyBytes(from: block[0..<length])
            offset += length
        }
    }

    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError) {
        var message = [register] + bytes
        let status = message.withUnsafeMutableBufferPointer { payload in
            var messages = [i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(payload.count), buf: payload.baseAddress)]
            return messages.withUnsafeMutableBufferPointer { list in
                var data = i2c_rdwr_ioctl_data(msgs: list.baseAddress, nmsgs: 1)
                return Self.callRetryingEINTR { ci2c_rdwr(fd, &data) }
            }
        }
        if status >= 0 { return }
        guard status == -EOPNOTSUPP, bytes.count <= 32 else {
            throw I2CError(errno: -status, bus: path, operation: "write \(bytes.count) bytes", address: address, register: register)
        }
        try select(address: address)
        var result: Int32 = 0
        try Self.retryingEINTR {
            result = bytes.count == 1
                ? i2c_smbus_write_byte_data(fd, register, bytes[0])
                : bytes.withUnsafeBufferPointer { i2c_smbus_write_i2c_block_data(fd, register, UInt8($0.count), $0.baseAddress) }
            return result < 0 ? -1 : 0
        } orThrow: { _ in
            I2CError(errno: -result, bus: path, operation: "write \(bytes.count) bytes", address: address, register: register)
        }
    }

    public func claim(address: UInt8) -> I2CClaim? { Self.claim(busPath: path, address: address) }

    /// The driver sysfs shows bound to `address` on the bus at `busPath` (`/dev/i2c-1`, or a udev
    /// link to it): `<sysfs>/bus/i2c/devices/1-0068/driver` links to the driver's directory.
    static func claim(busPath: String, address: UInt8, sysfs: String = "/sys") -> I2CClaim? {
        var resolved = busPath
        if let real = realpath(busPath, nil) {
            resolved = String(cString: real)
            free(real)
        }
        let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
        guard name.hasPrefix("i2c-"), let number = Int(name.dropFirst(4)) else { return nil }
        let hex = String(address, radix: 16)
        let device = "\(number)-" + String(repeating: "0", count: 4 - hex.count) + hex
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("\(sysfs)/bus/i2c/devices/\(device)/driver", &target, target.count - 1)
        guard length > 0 else { return nil }
        let link = target[..<length].withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
        guard let driver = link.split(separator: "/").last else { return nil }
        return I2CClaim(driver: String(driver), device: device)
    }

    /// Calls an ioctl until it is not interrupted; returns its result, or -errno.
    private static func callRetryingEINTR(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Glibc.errno
            if code != EINTR { return -code }
        }
    }

    /// Runs `call` (0 on success, -1 on failure with errno or its own code) until it is not
    /// interrupted, and throws what `error` makes of the final errno.
    private static func retryingEINTR(_ call: () -> Int32, orThrow error: (Int32) -> I2CError) throws(I2CError) {
        while true {
            if call() >= 0 { return }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw error(code)
        }
    }
}
