/// What a scan heard, one entry per address however many reports it sent (duplicates filtered):
/// the strongest signal, the name from whichever report carried it (often the scan response),
/// the services of all of them.
public struct ScanResults: Sendable {
    public struct Device: Sendable, Equatable {
        public var address: BluetoothAddress
        public var addressType: BluetoothAddressType
        public var name: String?
        public var services: [BluetoothUUID]
        public var strongestRSSI: Int?
        public var latestRSSI: Int?
        public var reports: Int
        public var connectable: Bool
    }

    public private(set) var devices: [BluetoothAddress: Device] = [:]
    /// Extra button services to accept as keychains (`[keychain] button_service`).
    public var keychainServices: Set<BluetoothUUID> = [BluetoothUUID(0xFFE0), BluetoothUUID(0x1802)]

    public init() {}

    public mutating func add(_ report: AdvertisingReport) {
        var device = devices[report.address] ?? Device(
            address: report.address, addressType: report.addressType, name: nil, services: [], strongestRSSI: nil,
            latestRSSI: nil, reports: 0, connectable: false)
        device.reports += 1
        if let name = report.data.name { device.name = name }
        for service in report.data.services where !device.services.contains(service) { device.services.append(service) }
        if let rssi = report.rssi {
            device.latestRSSI = rssi
            device.strongestRSSI = max(device.strongestRSSI ?? rssi, rssi)
        }
        if report.kind == .connectable || report.kind == .directed { device.connectable = true }
        if case .extended(let bits) = report.kind, bits & 0x01 != 0 { device.connectable = true }
        devices[report.address] = device
    }

    /// Everything heard, strongest first.
    public var sorted: [Device] {
        devices.values.sorted { ($0.strongestRSSI ?? -200, $0.address.description) > ($1.strongestRSSI ?? -200, $1.address.description) }
    }

    /// Whether a device looks like a keychain button: it advertises a button or Immediate Alert
    /// service, or calls itself iTag.
    public func looksLikeKeychain(_ device: Device) -> Bool {
        if device.services.contains(where: keychainServices.contains) { return true }
        return device.name?.lowercased().hasPrefix("itag") ?? false
    }

    public var keychains: [KeychainCandidate] {
        sorted.filter(looksLikeKeychain).map {
            KeychainCandidate(address: $0.address, addressType: $0.addressType, name: $0.name ?? "keychain", rssi: $0.strongestRSSI)
        }
    }
}
