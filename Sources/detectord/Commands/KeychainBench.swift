import DeviceLink
import FallDetect
import Foundation
import Histogram
import Logging
import ServiceLifecycle

/// `bench --keychain`: a fake iTag pressed through the daemon's own parts (ATT bearer, iTag
/// session, press classifier, keychain and workflow services on a real SQLite store), measuring
/// the time from a notification's arrival to the workflow's decision, and the time to reconnect
/// after the tag drops the link. The same presses sent at the event level (no ATT) are the peer:
/// their ratio is what the Bluetooth path costs.
struct KeychainBench {
    var presses: Int
    var drops: Int

    struct Row: Sendable, Codable {
        var path: String
        var count: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
    }

    /// A workflow with its store and a keychain service on `link`, running.
    final class Rig: Sendable {
        let store: WorkflowStore
        let workflow: WorkflowService
        let keychain: KeychainService
        let group: ServiceGroup
        let running: Task<Void, any Error>
        let directory: URL

        init(link: any KeychainLink, policy: KeychainPressPolicy) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-bench-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try WorkflowStore(path: directory.appendingPathComponent("bench.sqlite").path)
            _ = try store.transaction { tx in
                try tx.adopt(
                    person: try ProtectedPerson(fullName: "Bench Person", phone: "+351912345678", country: "PT"),
                    contacts: [try Contact(name: "Contact", phone: "+351913333333", channel: "console")], pinHash: nil,
                    settings: WorkflowSettings(), gnssConfigured: false, at: WorkflowService.utcNow())
            }
            let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
            let hub = EventHub(logger: logger)
            let keychain = KeychainService(link: link, hub: hub, policy: policy)
            self.keychain = keychain
            workflow = WorkflowService(store: store, hub: hub, metrics: DaemonMetrics(), wakeDispatcher: {}, beep: { keychain.beep($0) })
            keychain.connect(to: workflow)
            group = ServiceGroup(services: [workflow, keychain], logger: logger)
            running = Task { [group] in try await group.run() }
        }

        func stop() async {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func waitUntil(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = MonotonicTime.nowNanoseconds() + Int64(seconds * 1e9)
        while MonotonicTime.nowNanoseconds() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .microseconds(200))
        }
        return condition()
    }

    /// Presses `count` times; each raises the SOS countdown and is answered with "I'm fine".
    static func pressLoop(_ rig: Rig, count: Int, gap: Double, press: () -> Void) async throws -> Row? {
        for n in 0..<count {
            let before = rig.workflow.pressLatencies.count
            press()
            guard await waitUntil({ rig.workflow.pressLatencies.count > before }) else {
                throw FallDetectError(.noData, "press \(n + 1) was never decided")
            }
            _ = await rig.workflow.apply(.imFine, origin: "bench")
            try await Task.sleep(for: .milliseconds(Int(gap * 1000)))
        }
        let latencies = rig.workflow.pressLatencies
        return Row(path: "", count: Int(latencies.count), p50Microseconds: Double(latencies.microseconds(atPercentile: 50)),
                   p99Microseconds: Double(latencies.microseconds(atPercentile: 99)),
                   maxMicroseconds: Double(latencies.microseconds(atPercentile: 100)))
    }

    func run() async throws -> [Row] {
        var rows: [Row] = []
        let timing = PressTiming()
        for atOnce in [true, false] {
            let tag = try FakeGATTPeripheral(address: BluetoothAddress("FF:FF:10:20:30:40")!)
            let connector = FakePeripheralConnector(tag)
            let policy = atOnce ? try KeychainPressPolicy() : try KeychainPressPolicy(sos: .single, imFine: .double)
            let link = BluetoothKeychain(summary: "bench", connector: connector, timing: timing, decidesSingleAtOnce: atOnce,
                                         reconnect: KeychainReconnect(initialDelay: 0.05, maximumDelay: 1, connectTimeout: 2))
            let rig = try Rig(link: link, policy: policy)
            guard await Self.waitUntil({ link.snapshot.connected }) else { throw FallDetectError(.noData, "the fake keychain never connected") }
            if var row = try await Self.pressLoop(rig, count: presses, gap: timing.window + 0.15, press: { tag.press() }) {
                row.path = atOnce ? "ATT, single decided at once" : "ATT, single after the \(Int(timing.window * 1000)) ms window"
                rows.append(row)
            }
            if atOnce {
                var reconnects = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
                for _ in 0..<drops {
                    let before = link.snapshot.connections
                    let start = MonotonicTime.nowNanoseconds()
                    tag.disconnect()
                    guard await Self.waitUntil({ link.snapshot.connections > before && link.snapshot.connected }) else {
                        throw FallDetectError(.noData, "the fake keychain did not reconnect")
                    }
                    _ = reconnects.record(UInt64((MonotonicTime.nowNanoseconds() - start) / 1000))
                }
                rows.append(Row(path: "reconnect after a drop (connect, discovery, subscribe)", count: Int(reconnects.totalCount),
                                p50Microseconds: Double(reconnects.valueAtPercentile(50)), p99Microseconds: Double(reconnects.valueAtPercentile(99)),
                                maxMicroseconds: Double(reconnects.max)))
            }
            link.stop()
            await rig.stop()
            tag.stop()
        }
        // The peer: the same presses handed to the daemon at the event level, without ATT.
        let events = SimulatedKeychain(summary: "event level")
        let rig = try Rig(link: events, policy: try KeychainPressPolicy())
        if var row = try await Self.pressLoop(rig, count: presses, gap: 0.01, press: {
            events.send(.press(.single, receivedAt: MonotonicTime.nowNanoseconds()))
        }) {
            row.path = "events only (no ATT): the peer"
            rows.append(row)
        }
        await rig.stop()
        return rows
    }
}
