import Foundation
import Testing

@testable import DeviceLink

/// `HMACSHA256` (OpenSSL's HMAC) against RFC 4231's HMAC-SHA-256 vectors and the openssl tool.
@Suite struct HMACSHA256Tests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    static func code(_ message: [UInt8], key: [UInt8]) -> String {
        HMACSHA256.hex(HMACSHA256.authenticationCode(for: message, key: key))
    }

    static let largeKey = [UInt8](repeating: 0xaa, count: 131)

    /// RFC 4231 section 4, test cases 1–4, 6 and 7 (case 5 below): short, long and
    /// larger-than-block keys (hashed first), and data longer than a block.
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (largeKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (largeKey,
         Array(("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed "
             + "before being used by the HMAC algorithm.").utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func matchesRFC4231(key: [UInt8], data: [UInt8], expected: String) {
        let code = HMACSHA256.authenticationCode(for: data, key: key)
        #expect(code.count == 32)
        #expect(HMACSHA256.hex(code) == expected)
        #expect(code == Self.bytes(expected))
    }

    /// Test case 5 publishes the first 128 bits only.
    @Test func matchesRFC4231Truncated() {
        let code = Self.code(Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(code.hasPrefix("a3b6167473100ee06e0c796c2955552b"), "\(code)")
    }

    /// Empty buffers reach OpenSSL as null pointers; it must treat them as empty, not fail.
    @Test func emptyMessageAndKey() {
        #expect(Self.code([], key: Array("key".utf8)) == "5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0")
        #expect(Self.code([], key: []) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    /// The openssl tool agrees on a body like the webhook's.
    @Test func agreesWithTheOpenSSLTool() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            print("SKIPPED: /usr/bin/openssl not installed")
            return
        }
        let key = "s3cret-key-of-32-bytes-length!!!"
        let message = "1767268800.{\"text\":\"Zoë fell, 48.85661 ✓\"}" + String(repeating: "x", count: 300)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-hmac", key, "-r"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(Self.code(Array(message.utf8), key: Array(key.utf8)) == String(text.prefix(64)))
    }
}
