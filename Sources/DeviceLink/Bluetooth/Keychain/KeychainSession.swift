/// A connected, set-up keychain: handles discovered (never hard-coded: iTag board revisions differ),
/// the button subscribed, the battery read and subscribed when it can notify, Link Loss set.
public struct KeychainSession: Sendable {
    public let gatt: GATTClient
    public let buttonHandle: UInt16
    public let batteryHandle: UInt16?
    public let alertHandle: UInt16?
    public let alertWithoutResponse: Bool
    /// The battery level read at connection, when the tag has the Battery service.
    public let battery: Int?
    /// The level is notified when it changes; otherwise it must be read again now and then.
    public let batteryNotifies: Bool
    /// What ended the bearer after the button was subscribed (a timeout, the link dropping):
    /// the set-up was cut short, and only the presses the bearer already holds are left to serve.
    public var cutShort: ATTError?

    public init(gatt: GATTClient, buttonHandle: UInt16, batteryHandle: UInt16?, alertHandle: UInt16?, alertWithoutResponse: Bool,
                battery: Int?, batteryNotifies: Bool, cutShort: ATTError? = nil) {
        self.gatt = gatt
        self.buttonHandle = buttonHandle
        self.batteryHandle = batteryHandle
        self.alertHandle = alertHandle
        self.alertWithoutResponse = alertWithoutResponse
        self.battery = battery
        self.batteryNotifies = batteryNotifies
        self.cutShort = cutShort
    }

    /// Discovers and subscribes. Optional services failing (a clone refusing Link Loss, a battery
    /// that cannot be read) are not errors; a missing button is. `buttonReady` gets the session
    /// with only its button as soon as that is subscribed, so presses can be served while the
    /// optional steps (up to a request timeout each with a tag gone quiet) still run.
    public static func open(
        _ bearer: ATTBearer, profile: KeychainProfile, buttonReady: @Sendable (KeychainSession) -> Void = { _ in }
    ) async throws(KeychainSessionError) -> KeychainSession {
        let gatt = GATTClient(bearer: bearer, timeout: profile.requestTimeout)
        do {
            _ = try await gatt.exchangeMTU()
            let services = try await gatt.primaryServices()
            func characteristic(_ service: BluetoothUUID, _ uuid: BluetoothUUID) async throws(ATTError) -> GATTCharacteristic? {
                guard let found = services.first(where: { $0.uuid == service }) else { return nil }
                return try await gatt.characteristics(of: found).first { $0.uuid == uuid }
            }
            guard let button = try await characteristic(profile.buttonService, profile.buttonCharacteristic) else {
                throw KeychainSessionError.noButton(service: profile.buttonService, characteristic: profile.buttonCharacteristic,
                                                    services: services.map(\.uuid))
            }
            try await subscribe(button, gatt)
            buttonReady(KeychainSession(gatt: gatt, buttonHandle: button.valueHandle, batteryHandle: nil, alertHandle: nil,
                                        alertWithoutResponse: false, battery: nil, batteryNotifies: false))
            // The rest is optional: a part the tag refuses, answers badly or describes against
            // the rules is left out, since the button works without it. An error that ends the
            // bearer (a timeout, the link dropping) ends the set-up, but a press may already
            // have come on it: the session is returned with what it has, so the keychain serves
            // the presses the bearer holds, by the rules of any link, before it sees it close.
            func tolerated<T>(_ body: () async throws(ATTError) -> T) async throws(ATTError) -> T? {
                do throws(ATTError) { return try await body() } catch {
                    if error.endsBearer { throw error }
                    return nil
                }
            }
            func optional(_ service: BluetoothUUID, _ uuid: BluetoothUUID) async throws(ATTError) -> GATTCharacteristic? {
                try await tolerated { () async throws(ATTError) in try await characteristic(service, uuid) } ?? nil
            }
            var battery: Int?
            var batteryNotifies = false
            var batteryCharacteristic: GATTCharacteristic?
            var alert: GATTCharacteristic?
            var cutShort: ATTError?
            do throws(ATTError) {
                batteryCharacteristic = try await optional(KeychainProfile.batteryService, KeychainProfile.batteryLevel)
                if let batteryCharacteristic {
                    // Above 100 is no percentage (some tags send 255 for "unknown").
                    battery = try await tolerated { () async throws(ATTError) in
                        try await gatt.read(batteryCharacteristic.valueHandle)
                    }?.first.flatMap { $0 <= 100 ? Int($0) : nil }
                    // Notifying only once subscribed: a level declared to notify but without a
                    // CCCD is read hourly instead, else it stayed at its first value for weeks.
                    if batteryCharacteristic.properties.contains(.notify) {
                        batteryNotifies = try await tolerated { () async throws(ATTError) in
                            try await subscribe(batteryCharacteristic, gatt)
                        } ?? false
                    }
                }
                if let linkLoss = try await optional(KeychainProfile.linkLossService, KeychainProfile.alertLevel) {
                    _ = try await tolerated { () async throws(ATTError) in
                        try await gatt.write(linkLoss.valueHandle, [profile.linkLossAlert ? 2 : 0])
                    }
                }
                alert = try await optional(KeychainProfile.immediateAlertService, KeychainProfile.alertLevel)
            } catch {
                cutShort = error
            }
            return KeychainSession(gatt: gatt, buttonHandle: button.valueHandle, batteryHandle: batteryCharacteristic?.valueHandle,
                                   alertHandle: alert?.valueHandle, alertWithoutResponse: alert?.properties.contains(.writeWithoutResponse) ?? false,
                                   battery: battery, batteryNotifies: batteryNotifies, cutShort: cutShort)
        } catch let error as KeychainSessionError {
            throw error
        } catch let error as ATTError {
            throw .link(error)
        } catch {
            throw .link(.closed)
        }
    }

    /// The battery level's value as the tag gives it now; nil when it has no Battery service.
    public func readBattery() async throws(ATTError) -> [UInt8]? {
        guard let batteryHandle else { return nil }
        return try await gatt.read(batteryHandle)
    }

    /// Writes the CCCD: notifications when the characteristic has them, else indications. A tag
    /// without a CCCD is left as it is: some firmware notifies regardless (hardware.md §5.1).
    /// Returns whether a CCCD was written.
    @discardableResult
    private static func subscribe(_ characteristic: GATTCharacteristic, _ gatt: GATTClient) async throws(ATTError) -> Bool {
        let descriptors = try await gatt.descriptors(of: characteristic)
        guard let cccd = descriptors.first(where: { $0.uuid == .clientCharacteristicConfiguration }) else { return false }
        let indications = !characteristic.properties.contains(.notify) && characteristic.properties.contains(.indicate)
        try await gatt.subscribe(configuration: cccd.handle, indications: indications)
        return true
    }

    /// Sets the beeper: 0 silent, 1 mild, 2 high. A write without response when the tag takes one
    /// (iTags do), so the beeper never waits for an answer.
    public func setAlert(_ level: UInt8) async throws(ATTError) {
        guard let alertHandle else { return }
        if alertWithoutResponse {
            try gatt.writeWithoutResponse(alertHandle, [level])
        } else {
            try await gatt.write(alertHandle, [level])
        }
    }
}
