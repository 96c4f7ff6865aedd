/// Why a connected tag could not be set up as a keychain.
public enum KeychainSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    case link(ATTError)
    /// The tag has no button characteristic where the profile says; `services` lists what it has.
    case noButton(service: BluetoothUUID, characteristic: BluetoothUUID, services: [BluetoothUUID])

    public var description: String {
        switch self {
        case .link(let error): return error.description
        case .noButton(let service, let characteristic, let services):
            let found = services.map(\.description).joined(separator: ", ")
            return "no button characteristic \(characteristic) in service \(service) (the tag has \(found.isEmpty ? "no services" : found)); set [keychain] button_service and button_characteristic"
        }
    }
}
