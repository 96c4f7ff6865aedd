import FallDetect
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

    /// A webhook receiver that hangs until the request's timeout (up to 300 s) held back the SMS
    /// alerts queued behind it, since the outbox sent one message at a time. Each channel now has
    /// its own dispatcher: the SMS alert goes while the webhook still waits.
    @Test func aHangingChannelHoldsBackNoOtherChannel() async throws {
        let protected = try ProtectedStore("dispatch-lanes", channel: "webhook")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        // The webhook's contact is first, so its alert is the first one queued.
        try store.saveContact(Contact(name: "Inês", phone: "+351914444444", channel: "sms"))
        let now = WorkflowService.utcNow()
        try store.apply(.sos(fromKeychain: false), at: now - 40_000_000_000)
        try store.apply(.tick, at: now - 5_000_000_000)
        #expect(try store.workflow().state == .emergencySending)
        let webhook = HangingChannel(name: "webhook")
        let sms = DeliveredChannel(name: "sms")
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let dispatcher = DispatchService(
            store: store, channels: ["webhook": webhook, "sms": sms, "console": ConsoleChannel(name: "console", sink: { _ in })],
            isTest: false, deviceID: "test", hub: hub, metrics: DaemonMetrics(), clock: WallClock(store: store, hub: hub))
        let running = Task { try await ServiceGroup(services: [dispatcher], logger: logger).run() }
        #expect(await KeychainServiceTests.eventually { webhook.started.withLock { $0 } > 0 }, "the webhook's alert was never tried")
        #expect(await KeychainServiceTests.eventually { sms.recipients.withLock { $0 } == ["+351914444444"] },
                "SMS alerts sent while the webhook hung: \(sms.recipients.withLock { $0 })")
        #expect(try store.workflow().state == .emergencySent)
        // The webhook's request is still open: cancelling ends it (a graceful stop would wait for it).
        running.cancel()
        _ = try? await running.value
    }
}

/// A receiver that never answers: the attempt lasts until its task is cancelled.
private final class HangingChannel: AlertChannel {
    let name: String
    let started = Mutex(0)

    init(name: String) { self.name = name }

    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        started.withLock { $0 += 1 }
        try? await Task.sleep(for: .seconds(3600))
        return .retryAfter(seconds: 1, reason: "timed out")
    }
}

/// A receiver that takes every message at once and keeps who it was for.
private final class DeliveredChannel: AlertChannel {
    let name: String
    let recipients = Mutex<[String]>([])

    init(name: String) { self.name = name }

    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        recipients.withLock { $0.append(message.recipient) }
        return .delivered(reference: message.idempotencyKey)
    }
}
