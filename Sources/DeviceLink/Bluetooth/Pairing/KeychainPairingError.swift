/// Why a pairing step failed, with what the person can do about it.
public enum KeychainPairingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The radio could not scan (no adapter, adapter down, missing capabilities, busy).
    case scan(String)
    /// Connecting or setting the tag up failed.
    case link(String)
    /// Nobody pressed the button in time.
    case notConfirmed(seconds: Double)

    public var description: String {
        switch self {
        case .scan(let why): "cannot scan: \(why)"
        case .link(let why): "cannot reach the keychain: \(why)"
        case .notConfirmed(let seconds): "no press within \(Int(seconds)) s: was it the right keychain?"
        }
    }
}
