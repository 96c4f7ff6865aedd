import FallDetect
import Foundation

/// `[pin]`: the PIN that disarms an alarm, as a `PINHasher` hash (crypt(5) form, `$y$...`), never
/// the PIN itself. Optional: without it the device uses the PIN in its database, if any.
struct PINSettings: Sendable, Equatable {
    /// nil when the file sets no PIN.
    var hash: String?

    static let keys = ["hash_file", "hash"]

    init(hash: String? = nil) {
        self.hash = hash
    }

    /// Reads `hash_file` (one line) or `hash`, not both, and checks the hash's form. The hash is
    /// not printed in messages: it is not the PIN, but a four-digit PIN falls to a guess per value.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        let file = table.path("hash_file")
        let inline = table.string("hash")
        if file != nil, inline != nil {
            table.context.report(table.field("hash"), "give hash_file or hash, not both", at: .key)
            return nil
        }
        var hash = inline
        var field = table.field("hash")
        if let file {
            field = table.field("hash_file")
            do {
                hash = String(decoding: try ReferencedFile.read(file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                table.context.report(field, error.message)
                return nil
            }
        }
        if let hash, !Self.isCryptHash(hash) {
            table.context.report(field, "is not a PIN hash in crypt(5) form such as $y$j9T$...; make one with `mkpasswd -m yescrypt`")
            return nil
        }
        self.hash = hash
    }

    /// `$id$...$...`: a method, a salt and a hash separated by `$`, printable ASCII only.
    static func isCryptHash(_ text: String) -> Bool {
        text.hasPrefix("$") && text.split(separator: "$").count >= 3
            && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 32 && $0.value < 127 }
    }
}
