import CCrypt
#if canImport(Glibc)
import Glibc
#endif

/// Stores PINs only as salted, deliberately slow hashes (yescrypt from libxcrypt, the hash Debian
/// uses for login passwords), so a copied database does not reveal a four-digit PIN at a glance.
public enum PINHasher {
    /// At least four digits and nothing else.
    public static func validate(_ pin: String) throws(FallDetectError) {
        guard pin.count >= 4, pin.count <= 12, pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FallDetectError(.invalidArgument, "a PIN is 4 to 12 digits", field: "pin")
        }
    }

    /// A new hash with a fresh random salt, in crypt(5) form (`$y$...`).
    public static func hash(_ pin: String) throws(FallDetectError) -> String {
        try validate(pin)
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // A null random-bytes pointer makes libxcrypt read the system's random source itself.
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else {
            throw FallDetectError(.io, "cannot make a salt", errno: errnoValue())
        }
        return try run(pin, setting: setting)
    }

    /// True when `pin` matches `encoded`. Comparison is over the whole string, in constant time.
    public static func verify(_ pin: String, against encoded: String) -> Bool {
        guard let computed = try? run(pin, setting: Array(encoded.utf8CString)) else { return false }
        return ConstantTime.equal(computed, encoded)
    }

    /// Whether `encoded` is a hash some PIN can match: libxcrypt computes its method, and what it
    /// computes has the hash's own length and setting. A hash cut short in copying (`$y$j9T$salt`)
    /// or of a method this libxcrypt lacks has the form of one but matches no PIN, so the PIN
    /// would disarm nothing, and nobody would know before an alarm.
    public static func isUsable(_ encoded: String) -> Bool {
        guard let computed = try? run("0000", setting: Array(encoded.utf8CString)),
              let lastDollar = encoded.lastIndex(of: "$") else { return false }
        return computed.utf8.count == encoded.utf8.count && computed.hasPrefix(encoded[...lastDollar])
    }

    private static func run(_ pin: String, setting: [CChar]) throws(FallDetectError) -> String {
        var data = crypt_data()
        guard let out = crypt_r(pin, setting, &data) else {
            throw FallDetectError(.io, "cannot hash the PIN", errno: errnoValue())
        }
        let result = String(cString: out)
        // crypt(5): failures come back as a string starting with '*'.
        guard !result.hasPrefix("*") else { throw FallDetectError(.invalidArgument, "unusable PIN hash setting", field: "pin") }
        return result
    }

    private static func errnoValue() -> Int32 {
        #if canImport(Glibc)
        return Glibc.errno
        #else
        return 0
        #endif
    }
}
