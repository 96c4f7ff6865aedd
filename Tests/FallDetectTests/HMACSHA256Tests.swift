import Foundation
import Testing
@testable import FallDetect

/// `HMACSHA256` and the `SHA256` under it, against published vectors and openssl.
@Suite struct HMACSHA256Tests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256MatchesNIST(message: String, digest: String) {
        #expect(HMACSHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func sha256AcrossBlockBoundaries() {
        // 55, 56 and 64 bytes: the padding cases.
        #expect(HMACSHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 55))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(HMACSHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 56))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(HMACSHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 64))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 1.
        #expect(HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: a key shorter than the block.
        #expect(HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first.
        #expect(HMACSHA256.hex(HMACSHA256.authenticationCode(
            for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), key: [UInt8](repeating: 0xaa, count: 131)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// A second, independent implementation agrees on a body like the webhook's.
    @Test func hmacAgreesWithOpenSSL() throws {
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
        let expected = String(text.prefix(64))
        #expect(HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array(message.utf8), key: Array(key.utf8))) == expected)
    }
}
