/// HMAC-SHA256 (RFC 2104) over `SHA256`: the webhook signs each request body with the shared
/// secret so the receiver can tell our alerts from forgeries.
enum HMACSHA256 {
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > SHA256.blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
