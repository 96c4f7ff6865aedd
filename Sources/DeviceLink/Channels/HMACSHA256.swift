import COpenSSL

/// HMAC-SHA256 (RFC 2104) from the system's OpenSSL: the webhook signs each request body with the
/// shared secret so the receiver can tell our alerts from forgeries. A maintained implementation
/// rather than our own hash code.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // HMAC fails only when OpenSSL cannot allocate; an empty code then matches no signature,
        // so the receiver refuses the request instead of accepting a forgery.
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &code, &length)
            }
        }
        return result == nil ? [] : Array(code.prefix(Int(length)))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
