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
}
