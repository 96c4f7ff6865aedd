/// A press pattern on the keychain's button.
public enum KeychainPress: String, Sendable, Equatable, CaseIterable {
    case single, double, triple

    /// How many presses the pattern is.
    public var presses: Int {
        switch self {
        case .single: 1
        case .double: 2
        case .triple: 3
        }
    }
}
