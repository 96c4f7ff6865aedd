/// A press policy that cannot work.
public enum KeychainPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    case samePattern(KeychainPress)

    public var description: String {
        switch self {
        case .samePattern(let press): "the SOS and \"I'm fine\" patterns are both \(press.rawValue) presses; choose different ones"
        }
    }
}
