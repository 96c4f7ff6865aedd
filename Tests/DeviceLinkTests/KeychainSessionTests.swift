import Testing
@testable import DeviceLink

@Suite struct KeychainSessionTests {
    static let address = BluetoothAddress("FF:FF:10:20:30:40")!

    static func open(_ peripheral: FakeGATTPeripheral, profile: KeychainProfile = KeychainProfile()) async throws -> (ATTBearer, KeychainSession) {
        let socket = try await FakePeripheralConnector(peripheral).connect(timeout: 1)
        let bearer = try ATTBearer(socket: socket, label: "test", defaultTimeout: 2)
        return (bearer, try await KeychainSession.open(bearer, profile: profile))
    }

    /// A bearer and a profile that give up on a request after half a second (0.2 s was seen to
    /// expire on an answered request beside other suites on two busy cores).
    static let impatience = 0.5

    static func connectImpatiently(_ peripheral: FakeGATTPeripheral) async throws -> (ATTBearer, KeychainProfile) {
        var profile = KeychainProfile()
        profile.requestTimeout = impatience
        let socket = try await FakePeripheralConnector(peripheral).connect(timeout: 1)
        return (try ATTBearer(socket: socket, label: "test", defaultTimeout: impatience), profile)
    }

    @Test func anITagIsDiscoveredSubscribedAndItsLinkLossSilenced() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address, database: .iTag(battery: 96))
        defer { tag.stop() }
        let (bearer, session) = try await Self.open(tag)
        defer { bearer.close() }
        let db = FakeGATTDatabase.iTag()
        #expect(session.buttonHandle == db.handles(service: BluetoothUUID(0xFFE0), characteristic: BluetoothUUID(0xFFE1))?.value)
        #expect(session.battery == 96)
        #expect(session.alertWithoutResponse)
        #expect(tag.record.linkLossLevel == 0)
        let cccd = try #require(db.handles(service: BluetoothUUID(0xFFE0), characteristic: BluetoothUUID(0xFFE1))?.configuration)
        #expect(tag.record.received.contains(.writeRequest(handle: cccd, value: [1, 0])))
        try await session.setAlert(2)
        try await Task.sleep(for: .milliseconds(50))
        #expect(tag.record.alertLevels == [2])
    }

    @Test func aVendorButtonWithAnotherLayoutIsFoundByItsConfiguredUUIDs() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address, name: "SOS Button", database: .vendorButton(battery: 55),
                                         button: (FakeGATTDatabase.vendorButtonService, FakeGATTDatabase.vendorButtonCharacteristic))
        defer { tag.stop() }
        var profile = KeychainProfile()
        profile.buttonService = FakeGATTDatabase.vendorButtonService
        profile.buttonCharacteristic = FakeGATTDatabase.vendorButtonCharacteristic
        profile.linkLossAlert = true
        let (bearer, session) = try await Self.open(tag, profile: profile)
        defer { bearer.close() }
        #expect(session.battery == 55)
        #expect(!session.alertWithoutResponse, "this button's alert takes only write requests")
        #expect(tag.record.linkLossLevel == nil, "it has no Link Loss service")
        let cccd = try #require(FakeGATTDatabase.vendorButton().handles(service: FakeGATTDatabase.vendorButtonService,
                                                                        characteristic: FakeGATTDatabase.vendorButtonCharacteristic)?.configuration)
        #expect(tag.record.received.contains(.writeRequest(handle: cccd, value: [2, 0])), "indications, since it cannot notify")
        tag.press()
        var events = bearer.events.makeAsyncIterator()
        guard case .indication(session.buttonHandle, [1], _) = await events.next() else { Issue.record("no indication"); return }
        try await Task.sleep(for: .milliseconds(50))
        #expect(tag.record.confirmations == 1)
    }

    @Test func aTagWithoutTheButtonIsRefusedNamingWhatItHas() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address, database: .vendorButton())
        defer { tag.stop() }
        await #expect(throws: KeychainSessionError.self) { _ = try await Self.open(tag) }
        do { _ = try await Self.open(tag) } catch let error as KeychainSessionError {
            #expect(error.description.contains("6e400001"), "\(error)")
        }
    }

    @Test func optionalFailuresDoNotStopTheSetUp() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address)
        defer { tag.stop() }
        var behaviour = FakePeripheralBehaviour()
        behaviour.errors[ATTOpcode.exchangeMTURequest.rawValue] = .requestNotSupported
        behaviour.errors[ATTOpcode.readRequest.rawValue] = .readNotPermitted
        behaviour.responseDelay = 0.02
        tag.behaviour = behaviour
        let (bearer, session) = try await Self.open(tag)
        defer { bearer.close() }
        #expect(session.battery == nil)
        #expect(bearer.mtu == 23)
    }

    /// Firmware that refuses to describe its optional services (battery, link loss, the beeper):
    /// the button still works; only the button's own refusal stops the set-up.
    @Test func anOptionalServiceThatRefusesDiscoveryIsLeftOut() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address)
        defer { tag.stop() }
        var behaviour = FakePeripheralBehaviour()
        for service in [KeychainProfile.batteryService, KeychainProfile.linkLossService, KeychainProfile.immediateAlertService] {
            behaviour.refusedServices[service] = .insufficientAuthentication
        }
        tag.behaviour = behaviour
        let (bearer, session) = try await Self.open(tag)
        #expect(session.battery == nil && session.batteryHandle == nil && session.alertHandle == nil)
        #expect(tag.record.linkLossLevel == nil)
        tag.press()
        var events = bearer.events.makeAsyncIterator()
        guard case .notification(session.buttonHandle, [1], _) = await events.next() else { Issue.record("no press"); return }
        bearer.close()

        behaviour.refusedServices = [KeychainProfile().buttonService: .insufficientAuthentication]
        tag.behaviour = behaviour
        await #expect(throws: KeychainSessionError.self) { _ = try await Self.open(tag) }
    }

    @Test func aHangUpAtEveryStepOfTheSetUpIsAnErrorNotAHang() async throws {
        for step in 1...12 {
            let tag = try FakeGATTPeripheral(address: Self.address)
            defer { tag.stop() }
            var behaviour = FakePeripheralBehaviour()
            behaviour.disconnectAfterRequests = step
            tag.behaviour = behaviour
            do {
                let (bearer, session) = try await Self.open(tag)
                bearer.close()
                // After the button's subscription, a hang-up cuts the set-up short.
                #expect(tag.record.received.count < step || session.cutShort != nil,
                        "step \(step): set up in \(tag.record.received.count) requests, cut short by \(String(describing: session.cutShort))")
            } catch let error as KeychainSessionError {
                guard case .link = error else { Issue.record("step \(step): \(error)"); continue }
            }
        }
    }

    @Test func aSilentTagTimesOut() async throws {
        let tag = try FakeGATTPeripheral(address: Self.address)
        defer { tag.stop() }
        var behaviour = FakePeripheralBehaviour()
        behaviour.silentOpcodes = [ATTOpcode.readByGroupTypeRequest.rawValue]
        tag.behaviour = behaviour
        let (bearer, profile) = try await Self.connectImpatiently(tag)
        await #expect(throws: KeychainSessionError.link(.timeout(request: 0x10, seconds: Self.impatience))) {
            _ = try await KeychainSession.open(bearer, profile: profile)
        }
    }

    /// A battery level that declares notify but has no CCCD to subscribe with never notifies:
    /// the session must not count on it, so the level is read again hourly.
    @Test func aBatteryLevelWithoutACCCDIsNotTakenToNotify() async throws {
        var db = FakeGATTDatabase()
        db.service(KeychainProfile.batteryService)
        db.characteristic(KeychainProfile.batteryLevel, [.read, .notify], value: [80], withoutCCCD: true)
        db.service(KeychainProfile().buttonService)
        db.characteristic(KeychainProfile().buttonCharacteristic, [.read, .notify], value: [0])
        let tag = try FakeGATTPeripheral(address: Self.address, database: db)
        defer { tag.stop() }
        let (bearer, session) = try await Self.open(tag)
        defer { bearer.close() }
        #expect(session.battery == 80)
        #expect(!session.batteryNotifies)
        let notifying = try FakeGATTPeripheral(address: Self.address, database: .iTag(battery: 96))
        defer { notifying.stop() }
        let (other, subscribed) = try await Self.open(notifying)
        defer { other.close() }
        #expect(subscribed.batteryNotifies)
    }

    /// A clone whose button has no CCCD and whose last request in the set-up, the battery read or
    /// the Link Loss write, goes unanswered: the timeout ended the bearer, so the session must say
    /// it was cut short, not come back as set up with nothing left to ask.
    @Test func aTimeoutOnTheLastOptionalRequestCutsTheSetUpShort() async throws {
        let steps: [(service: BluetoothUUID, properties: GATTCharacteristicProperties, silent: ATTOpcode)] = [
            (KeychainProfile.batteryService, [.read], .readRequest),
            (KeychainProfile.linkLossService, [.read, .write], .writeRequest),
        ]
        for step in steps {
            var db = FakeGATTDatabase()
            db.service(BluetoothUUID(0x1800))
            db.characteristic(BluetoothUUID(0x2A00), [.read], value: Array("iTAG".utf8))
            db.service(KeychainProfile().buttonService)
            db.characteristic(KeychainProfile().buttonCharacteristic, [.read], value: [0])
            db.service(step.service)
            db.characteristic(step.service == KeychainProfile.batteryService ? KeychainProfile.batteryLevel : KeychainProfile.alertLevel,
                              step.properties, value: [1])
            let tag = try FakeGATTPeripheral(address: Self.address, database: db)
            defer { tag.stop() }
            var behaviour = FakePeripheralBehaviour()
            behaviour.silentOpcodes = [step.silent.rawValue]
            tag.behaviour = behaviour
            let (bearer, profile) = try await Self.connectImpatiently(tag)
            defer { bearer.close() }
            let session = try await KeychainSession.open(bearer, profile: profile)
            #expect(session.cutShort == .timeout(request: step.silent.rawValue, seconds: Self.impatience), "\(step.service)")
        }
    }
}
