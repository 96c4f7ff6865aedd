/// How an LE device's address is to be read: public (IEEE-assigned; iTags use these) or random
/// (phones, many newer buttons). The advertising report says which.
public enum BluetoothAddressType: String, Sendable, Codable, CaseIterable {
    case `public`
    case random
}
