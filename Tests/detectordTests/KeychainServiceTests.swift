import DeviceLink
import FallDetect
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import detectord

/// The keychain seam in the daemon: the workflow service and the keychain service as the daemon
/// runs them, on a real SQLite store, with a simulated keychain at the Bluetooth boundary.
@Suite struct KeychainServiceTests {
    @Test func aSinglePressRaisesAnSOSAndTheBeeperFollowsTheAlarm() async throws {
        let protected = try ProtectedStore("keychain")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let tag = SimulatedKeychain()
        let keychain = KeychainService(link: tag, hub: hub)
        let workflow = WorkflowService(store: store, hub: hub, metrics: DaemonMetrics(), wakeDispatcher: {}, beep: { keychain.beep($0) })
        keychain.connect(to: workflow)
        let group = ServiceGroup(services: [workflow, keychain], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }

        tag.send(.connected)
        tag.send(.press(.double))
        tag.send(.press(.single))
        #expect(await Self.eventually { (try? store.workflow())?.state == .alertCountdown }, "a single press raises the alarm")
        let machine = try store.workflow()
        #expect(machine.raisedFromKeychain)
        #expect(machine.trigger == .manual)
        #expect(machine.countdownRemaining(at: WorkflowService.utcNow()).map { $0 <= WorkflowSettings().manualCountdown } == true)
        #expect(await Self.eventually { tag.beepRequests == [true] }, "the tag beeps while the alarm sounds: \(tag.beepRequests)")
        #expect(keychain.status["state"] as? String == "connected")
        #expect(hub.recentEvents.filter { $0.type == "keychain_press" }.count == 2, "both presses are in the log")

        _ = await workflow.apply(.imFine, origin: "test")
        #expect(await Self.eventually { tag.beepRequests == [true, false] }, "and stops with it: \(tag.beepRequests)")

        tag.send(.battery(percent: 15))
        tag.send(.battery(percent: 14))
        #expect(await Self.eventually { (try? store.setting("batteryPercent", as: Int.self)) == 14 })
        let lowBattery = try store.due(at: Int64.max).filter { $0.kind == MessageKind.lowBattery.rawValue }
        #expect(lowBattery.count == 2, "one low-battery message (to the log and to Rui), not one per reading: \(lowBattery.map(\.idempotencyKey))")

        tag.send(.disconnected(reason: "out of range"))
        #expect(await Self.eventually { keychain.status["state"] as? String == "cannot find the keychain" })
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// A workflow and keychain service on a fresh store, running.
    struct Rig {
        let store: WorkflowStore
        let tag = SimulatedKeychain()
        let keychain: KeychainService
        let workflow: WorkflowService
        let group: ServiceGroup
        let running: Task<Void, any Error>
        let directory: URL

        init(policy: KeychainPressPolicy, linkLostWarning: Double = 0, lostMessageAfter: Double? = nil, linkSteadySeconds: Double = 0) throws {
            let protected = try ProtectedStore("keychain", channel: "webhook")
            directory = protected.directory
            store = protected.store
            let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            let hub = EventHub(logger: logger)
            let keychain = KeychainService(link: tag, hub: hub, policy: policy, linkLostWarning: linkLostWarning, linkSteadySeconds: linkSteadySeconds)
            self.keychain = keychain
            workflow = WorkflowService(store: store, hub: hub, metrics: DaemonMetrics(), keychainLostMessageAfter: lostMessageAfter,
                                       wakeDispatcher: {}, beep: { keychain.beep($0) })
            keychain.connect(to: workflow)
            group = ServiceGroup(services: [workflow, keychain], logger: logger)
            running = Task { [group] in try await group.run() }
        }

        var state: EmergencyState? { (try? store.workflow())?.state }

        func stop() async {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func aChosenImFinePatternCancelsOnlyADetectionsCountdown() async throws {
        let rig = try Rig(policy: try KeychainPressPolicy(sos: .single, imFine: .double))
        rig.tag.send(.connected)
        _ = await rig.workflow.apply(.detection(.automaticFall), origin: "test")
        #expect(rig.state == .alertCountdown)
        rig.tag.send(.press(.double))
        #expect(await Self.eventually { rig.state == .noEmergency }, "double = I'm fine during a fall's countdown")
        rig.tag.send(.press(.single))
        #expect(await Self.eventually { rig.state == .alertCountdown })
        rig.tag.send(.press(.double))
        rig.tag.send(.press(.triple))
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.state == .alertCountdown, "an SOS countdown is not the button's to cancel")
        await rig.stop()
    }

    @Test func byDefaultNoPressCancels() async throws {
        let rig = try Rig(policy: try KeychainPressPolicy())
        _ = await rig.workflow.apply(.detection(.automaticCrash), origin: "test")
        for press in KeychainPress.allCases { rig.tag.send(.press(press)) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.state == .alertCountdown)
        #expect(try rig.store.workflow().trigger == .automaticCrash, "the single press confirmed it, not replaced it")
        await rig.stop()
    }

    @Test func aLostLinkIsSearchingThenAWarningThenAMessageToTheWearer() async throws {
        let rig = try Rig(policy: try KeychainPressPolicy(), linkLostWarning: 1.5, lostMessageAfter: 2)
        #expect(await Self.eventually { rig.keychain.status["state"] as? String == "searching" }, "before the first connection")
        rig.tag.send(.connected)
        #expect(await Self.eventually { rig.keychain.status["state"] as? String == "connected" })
        rig.tag.send(.disconnected(reason: "out of range"))
        #expect(await Self.eventually { rig.keychain.status["state"] as? String == "searching" })
        #expect(await Self.eventually { rig.keychain.status["state"] as? String == "cannot find the keychain" }, "after the warning time")
        #expect(rig.keychain.status["reason"] as? String == "out of range")
        #expect(await Self.eventually { (try? rig.store.due(at: Int64.max).contains { $0.kind == MessageKind.keychainLost.rawValue }) == true },
                "the wearer is told once it stays lost")
        rig.tag.send(.connected)
        #expect(await Self.eventually { rig.keychain.status["state"] as? String == "connected" })
        #expect(await Self.eventually { (try? rig.store.snapshot { try $0.keychainLostSince() }) == nil })
        await rig.stop()
    }

    /// A keychain at the edge of range that connects for a moment between losses is lost all
    /// along: the loss keeps its start, lasts long enough to tell the wearer, and ends only once
    /// a link stays up. Before, each brief link ended it, and no loss ever lasted the minutes
    /// the message waits for.
    @Test func aLinkThatKeepsDroppingIsOneLossUntilALinkStaysUp() async throws {
        let rig = try Rig(policy: try KeychainPressPolicy(), lostMessageAfter: 1.5, linkSteadySeconds: 2)
        rig.tag.send(.connected)
        rig.tag.send(.disconnected(reason: "out of range"))
        #expect(await Self.eventually { (try? rig.store.snapshot { try $0.keychainLostSince() }) != nil })
        let since = try rig.store.snapshot { try $0.keychainLostSince() }
        for _ in 0..<4 {
            try await Task.sleep(for: .milliseconds(400))
            rig.tag.send(.connected)
            try await Task.sleep(for: .milliseconds(300))
            rig.tag.send(.disconnected(reason: "out of range"))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(try rig.store.snapshot { try $0.keychainLostSince() } == since, "the loss goes on from its start")
        #expect(rig.keychain.status["state"] as? String != "connected")
        #expect(await Self.eventually { (try? rig.store.due(at: Int64.max).contains { $0.kind == MessageKind.keychainLost.rawValue }) == true },
                "the wearer is told")
        rig.tag.send(.connected)
        #expect(await Self.eventually { (try? rig.store.snapshot { try $0.keychainLostSince() }) == nil }, "a link that stays up ends it")
        await rig.stop()
    }

    /// A keychain that never connects after a start (its battery went flat meanwhile) sends no
    /// drop: the search itself is recorded as a loss once it lasts the warning time, and the
    /// wearer is told. One that connects in time leaves no trace of the search.
    @Test func aKeychainThatNeverConnectsIsReportedLost() async throws {
        let rig = try Rig(policy: try KeychainPressPolicy(), linkLostWarning: 0.3, lostMessageAfter: 0.5)
        #expect(await Self.eventually { (try? rig.store.snapshot { try $0.keychainLostSince() }) != nil }, "lost since the start")
        #expect(await Self.eventually { (try? rig.store.due(at: Int64.max).contains { $0.kind == MessageKind.keychainLost.rawValue }) == true })
        rig.tag.send(.connected)
        #expect(await Self.eventually { (try? rig.store.snapshot { try $0.keychainLostSince() }) == nil })
        await rig.stop()

        let prompt = try Rig(policy: try KeychainPressPolicy(), linkLostWarning: 0.3, lostMessageAfter: 0.5)
        prompt.tag.send(.connected)
        #expect(await Self.eventually { prompt.keychain.status["state"] as? String == "connected" })
        try await Task.sleep(for: .milliseconds(800))
        #expect(try prompt.store.snapshot { try $0.keychainLostSince() } == nil)
        #expect(try !prompt.store.due(at: Int64.max).contains { $0.kind == MessageKind.keychainLost.rawValue })
        await prompt.stop()
    }

    /// A radio whose adapter is switched off, as the kernel reports it to a connect.
    struct AdapterOff: KeychainConnector {
        var summary: String { "adapter off" }
        func connect(timeout: Double) async throws(ATTError) -> ATTSocket { throw .system(errno: ENETDOWN, operation: "connect") }
    }

    @Test func anAdapterSwitchedOffIsToldApartFromAKeychainOutOfReach() async throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let link = BluetoothKeychain(summary: "iTAG FF:FF:10:20:30:40", connector: AdapterOff())
        let keychain = KeychainService(link: link, hub: EventHub(logger: logger))
        let group = ServiceGroup(services: [keychain], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        #expect(await Self.eventually { keychain.status["state"] as? String == "adapter off" }, "\(keychain.status)")
        #expect((keychain.status["reason"] as? String)?.contains("btmgmt power on") == true)
    }

    /// A reload (a keychain paired or forgotten) that comes while the link is being made found no
    /// link to stop, and the old binding's link ran on. Now that link is stopped once in place,
    /// and the new binding's is made.
    @Test func aReloadWhileTheLinkIsMadeIsNotLost() async throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let made = Mutex(0)
        let service = Mutex<KeychainService?>(nil)
        let keychain = KeychainService(policy: try KeychainPressPolicy(), hub: EventHub(logger: logger), makeLink: {
            if made.withLock({ $0 += 1; return $0 }) == 1 { service.withLock { $0 }?.reload() }
            return SimulatedKeychain()
        })
        service.withLock { $0 = keychain }
        let group = ServiceGroup(services: [keychain], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        #expect(await Self.eventually { made.withLock { $0 } >= 2 }, "the link made before the reload was stopped and another made")
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// The daemon asked to stop while the link is being made: the service still ends.
    @Test func aShutdownWhileTheLinkIsMadeStillEnds() async throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let groupBox = Mutex<ServiceGroup?>(nil)
        let made = Mutex(0)
        let keychain = KeychainService(policy: try KeychainPressPolicy(), hub: EventHub(logger: logger), makeLink: {
            if made.withLock({ $0 += 1; return $0 }) == 1, let group = groupBox.withLock({ $0 }) {
                Task { await group.triggerGracefulShutdown() }
                usleep(300_000)  // the shutdown arrives before the link is in place
            }
            return SimulatedKeychain()
        })
        let group = ServiceGroup(services: [keychain], logger: logger)
        groupBox.withLock { $0 = group }
        let ended = Mutex(false)
        let running = Task {
            try? await group.run()
            ended.withLock { $0 = true }
        }
        defer { running.cancel() }
        #expect(await Self.eventually { ended.withLock { $0 } }, "the keychain service ended")
    }

    /// A pairing that could not be read was taken for none: the keychain stayed off, shown as
    /// "not paired", until a reload. Now it is told once and read again until it can be.
    @Test func aPairingThatCannotBeReadIsToldAndReadAgain() async throws {
        let protected = try ProtectedStore("keychain")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let device = try store.transaction { tx in
            try tx.bindKeychain(KeychainBinding(address: "FF:FF:C0:FF:EE:07", addressType: "public", name: "iTAG",
                                                person: "+351912345678", device: "", boundAt: 1))
            return try tx.deviceID()
        }
        try store.setSetting("deviceID", 42) // an identity that does not decode: every read of the pairing fails
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let factory = try KeychainLinkFactory(settings: KeychainSettings(kind: .itag), store: store)
        let keychain = KeychainService(policy: factory.policy, bindingRetrySeconds: 0.02, hub: hub, makeLink: { try factory.makeLink() })
        let group = ServiceGroup(services: [keychain], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        func told(_ state: String) -> Int {
            hub.recentEvents.filter { event in
                event.type == "keychain" && event.fields.contains { $0.0 == "state" && "\($0.1)".contains(state) }
            }.count
        }

        #expect(await Self.eventually { keychain.status["state"] as? String == "binding unreadable" }, "\(keychain.status)")
        #expect((keychain.status["reason"] as? String)?.contains("cannot read the keychain's pairing") == true, "\(keychain.status)")
        try await Task.sleep(for: .milliseconds(300)) // retries at 20, 40, 80, 160 ms
        #expect(told("binding unreadable") == 1, "told once, not at each retry")

        try store.setSetting("deviceID", device)
        #expect(await Self.eventually { (keychain.status["source"] as? String)?.hasPrefix("iTAG FF:FF:C0:FF:EE:07") == true },
                "the bound keychain's link is made once the pairing reads: \(keychain.status)")
        #expect(told("binding read") == 1)
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
