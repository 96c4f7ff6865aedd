/// A press pattern on the keychain's button.
public enum KeychainPress: String, Sendable, Equatable, CaseIterable {
    case single, double, triple
}
