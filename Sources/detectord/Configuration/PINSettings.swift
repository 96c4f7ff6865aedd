import FallDetect
import Foundation

/// `[pin]`: the PIN that disarms an alarm, as a `PINHasher` hash (crypt(5) form, `$y$...`), never
/// the PIN itself, and optionally a duress PIN: given under coercion, it looks exactly like the
/// PIN to whoever watches (the alarm stops, the page shows all well) while the emergency goes on
/// and the contacts are told. Optional: without it the device uses the PIN in its database, if any.
struct PINSettings: Sendable, Equatable {
    /// nil when the file sets no PIN.
    var hash: String?
    /// nil when the file sets no duress PIN.
    var duressHash: String?

    static let keys = ["hash_file", "hash", "duress_hash_file", "duress_hash"]

    init(hash: String? = nil, duressHash: String? = nil) {
        self.hash = hash
        self.duressHash = duressHash
    }

    /// Reads each hash from its `…_file` (one line) or inline key, not both, and checks its form.
    /// Hashes are not printed in messages: they are not the PIN, but a four-digit PIN falls to a
    /// guess per value.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        guard case .some(let hash) = Self.hash(in: table, file: "hash_file", inline: "hash"),
              case .some(let duress) = Self.hash(in: table, file: "duress_hash_file", inline: "duress_hash")
        else { return nil }
        let duressField = table.field(table.contains("duress_hash") ? "duress_hash" : "duress_hash_file")
        if duress != nil, hash == nil {
            table.context.report(duressField, "a duress PIN needs the PIN itself (hash or hash_file)")
            return nil
        }
        if let duress, duress == hash {
            table.context.report(duressField, "is the PIN's own hash; the duress PIN must be another PIN")
            return nil
        }
        self.hash = hash
        duressHash = duress
    }

    /// `.some(nil)` when neither key is there, `nil` after reporting a problem.
    private static func hash(in table: ConfigurationTable, file fileKey: String, inline inlineKey: String) -> String?? {
        let file = table.path(fileKey)
        let inline = table.string(inlineKey)
        if file != nil, inline != nil {
            table.context.report(table.field(inlineKey), "give \(fileKey) or \(inlineKey), not both", at: .key)
            return nil
        }
        var hash = inline
        var field = table.field(inlineKey)
        if let file {
            field = table.field(fileKey)
            do {
                hash = String(decoding: try ReferencedFile.read(file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                table.context.report(field, error.message)
                return nil
            }
        }
        if let hash, !isCryptHash(hash) {
            table.context.report(field, "is not a PIN hash in crypt(5) form such as $y$j9T$...; make one with `mkpasswd -m yescrypt`")
            return nil
        }
        if let hash, !PINHasher.isUsable(hash) {
            table.context.report(field, "is a hash no PIN can match (cut short, or a method this system's libxcrypt cannot compute); make one with `mkpasswd -m yescrypt`")
            return nil
        }
        return .some(hash)
    }

    /// `$id$...$...`: a method, a salt and a hash separated by `$`, printable ASCII only.
    static func isCryptHash(_ text: String) -> Bool {
        text.hasPrefix("$") && text.split(separator: "$").count >= 3
            && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 32 && $0.value < 127 }
    }
}
