@testable import FallDetect
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
@testable import detectord

/// The dispatcher as the daemon runs it, on a real SQLite store.
@Suite struct DispatchServiceTests {
    /// A test alarm ends when its alert is delivered; the end comes from the dispatcher, which
    /// must silence the keychain too. Before, it beeped on until the next alarm was silenced.
    @Test func aTestAlarmsDeliverySilencesTheKeychain() async throws {
        let protected = try ProtectedStore("dispatch-beep")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let now = WorkflowService.utcNow()
        try store.apply(.testAlarm, at: now - 40_000_000_000)
        try store.apply(.tick, at: now - 5_000_000_000)
        #expect(try store.workflow().state == .emergencySending)
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let beeps = Mutex<[Bool]>([])
        let dispatcher = DispatchService(
            store: store, channels: ["console": ConsoleChannel(name: "console", sink: { _ in })], isTest: false, deviceID: "test",
            hub: hub, metrics: DaemonMetrics(), clock: WallClock(store: store, hub: hub), beep: { on in beeps.withLock { $0.append(on) } })
        let group = ServiceGroup(services: [dispatcher], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        #expect(await KeychainServiceTests.eventually { beeps.withLock { $0 } == [false] }, "\(beeps.withLock { $0 })")
        #expect(try store.workflow().state == .noEmergency)
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// A store sending an SOS's alerts to a webhook contact and, queued after it, an SMS contact.
    static func sendingAnSOS(_ name: String) throws -> ProtectedStore {
        let protected = try ProtectedStore(name, channel: "webhook")
        try protected.store.saveContact(Contact(name: "Inês", phone: "+351914444444", channel: "sms"))
        let now = WorkflowService.utcNow()
        try protected.store.apply(.sos(fromKeychain: false), at: now - 40_000_000_000)
        try protected.store.apply(.tick, at: now - 5_000_000_000)
        return protected
    }

    /// A store that takes no writes (a full disk) fails every lane: the log says so once, not
    /// once per lane every five seconds.
    @Test func aFailingStoreIsToldOnceForAllLanes() async throws {
        let protected = try Self.sendingAnSOS("dispatch-failing")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        try store.transaction { try $0.db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON outbox BEGIN SELECT RAISE(ABORT, 'disk full'); END") }
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let dispatcher = DispatchService(
            store: store, channels: ["webhook": DeliveredChannel(name: "webhook"), "sms": DeliveredChannel(name: "sms"), "console": ConsoleChannel(name: "console", sink: { _ in })],
            isTest: false, deviceID: "test", hub: hub, metrics: DaemonMetrics(), clock: WallClock(store: store, hub: hub))
        let running = Task { try await ServiceGroup(services: [dispatcher], logger: logger).run() }
        defer { running.cancel() }
        func errors() -> [String] { hub.recentEvents.filter { $0.type == "error" }.map { "\($0)" } }
        #expect(await KeychainServiceTests.eventually { !errors().isEmpty }, "the failure is told")
        try await Task.sleep(for: .seconds(1))
        #expect(errors().count == 1, "\(errors())")
    }

    /// A webhook receiver that hangs until the request's timeout (up to 300 s) held back the SMS
    /// alerts queued behind it, since the outbox sent one message at a time. Each channel now has
    /// its own dispatcher: the SMS alert goes while the webhook still waits. Cancelled meanwhile,
    /// the SMS contact gets the all clear at once, and the webhook's contact once its alert's
    /// attempt has ended (it may have arrived), however it ended.
    @Test func aHangingChannelHoldsBackNoOtherChannel() async throws {
        let protected = try Self.sendingAnSOS("dispatch-lanes")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        #expect(try store.workflow().state == .emergencySending)
        let webhook = HangingChannel(name: "webhook")
        let sms = DeliveredChannel(name: "sms")
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let dispatcher = DispatchService(
            store: store, channels: ["webhook": webhook, "sms": sms, "console": ConsoleChannel(name: "console", sink: { _ in })],
            isTest: false, deviceID: "test", hub: hub, metrics: DaemonMetrics(), clock: WallClock(store: store, hub: hub))
        let running = Task { try await ServiceGroup(services: [dispatcher], logger: logger).run() }
        defer { running.cancel() }
        #expect(await KeychainServiceTests.eventually { webhook.kinds.withLock { $0 } == [.alert] }, "the webhook's alert was never tried")
        #expect(await KeychainServiceTests.eventually { (try? store.workflow().state) == .emergencySent },
                "SMS sent while the webhook hung: \(sms.kinds.withLock { $0 })")
        #expect(sms.kinds.withLock { $0 } == [.alert])

        try store.apply(.disarm(.correct), at: WorkflowService.utcNow())
        try store.apply(.cancel, at: WorkflowService.utcNow())
        #expect(try store.workflow().state == .emergencyEnded)
        dispatcher.wake()
        #expect(await KeychainServiceTests.eventually { sms.kinds.withLock { $0 } == [.alert, .allClear] }, "\(sms.kinds.withLock { $0 })")
        #expect(webhook.kinds.withLock { $0 } == [.alert], "the webhook's lane is still in its first attempt")
        webhook.release()
        #expect(await KeychainServiceTests.eventually { webhook.kinds.withLock { $0 } == [.alert, .allClear] }, "\(webhook.kinds.withLock { $0 })")
    }
}

/// A receiver that does not answer until released: then it takes what comes.
private final class HangingChannel: AlertChannel {
    let name: String
    let kinds = Mutex<[MessageKind]>([])
    private let released = Mutex(false)

    init(name: String) { self.name = name }

    func release() { released.withLock { $0 = true } }

    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        kinds.withLock { $0.append(message.kind) }
        while !released.withLock({ $0 }), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        return .delivered(reference: message.idempotencyKey)
    }
}

/// A receiver that takes every message at once and keeps what kind it was.
private final class DeliveredChannel: AlertChannel {
    let name: String
    let kinds = Mutex<[MessageKind]>([])

    init(name: String) { self.name = name }

    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        kinds.withLock { $0.append(message.kind) }
        return .delivered(reference: message.idempotencyKey)
    }
}
