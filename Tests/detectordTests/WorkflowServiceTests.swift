import FallDetect
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing
@testable import detectord
#if canImport(Glibc)
import Glibc
#endif

/// The workflow's store failing under a running daemon while a fall happens: the database on a
/// small tmpfs that is filled up. The fall must not be lost: the person (and the log) see an
/// error, and once the store takes writes again the emergency is recorded and its alert sent,
/// once. (A read-only remount is refused while the daemon holds the file open for writing, so
/// that fault is not injected this way.)
@Suite(.serialized) struct WorkflowServiceTests {
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// An 8 MiB tmpfs mounted in the setup's folder, for the caller to unmount. Mounting needs
    /// root (CI runs as root); a machine where it is refused fails here plainly.
    static func smallDisk(in setup: DaemonTestSetup) throws -> String {
        let disk = setup.directory.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(try run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", disk]) == 0, "cannot mount a tmpfs at \(disk): run as root")
        return disk
    }

    /// A daemon set-up with its database's folder on an 8 MiB tmpfs and a webhook receiver;
    /// everything is taken down after `body`.
    static func withSmallDisk(_ body: (DaemonTestSetup, _ disk: String, LoopbackHTTPServer) throws -> Void) throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let disk = try smallDisk(in: setup)
        defer { _ = try? run("/bin/umount", ["-l", disk]) }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try body(setup, disk, sink)
    }

    /// Writes zeros until the file system says it is full.
    static func fill(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // The last partial block.
        while write(fd, chunk, 1) > 0 {}
    }

    @Test func aFallAndAnSOSWhileTheDiskIsFullAreRecordedLateAndOneAlertGoesOut() throws {
        try Self.withSmallDisk { setup, disk, sink in
            try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, webhook: sink.url)
            let daemon = try setup.start(["--db", disk + "/detectord.sqlite", "--exit-when-idle"])
            try daemon.waitForEvent("api", timeout: 30)
            let filler = disk + "/filler"
            Self.fill(filler)
            try daemon.waitForEvent("detection", timeout: 90) { $0.contains("kind=fall") }
            try daemon.waitForEvent("error", timeout: 30) { $0.contains("tried again every second") }
            // The wearer's own SOS meanwhile is taken (202, pending), not refused.
            let sos = try DaemonProcess.request(try daemon.apiBase() + "/api/sos", method: "POST", json: [:])
            #expect(sos.status == 202 && sos.body["pending"] as? Bool == true, "\(sos.status) \(sos.text)")
            Thread.sleep(forTimeInterval: 2)
            #expect(daemon.isRunning, "the daemon goes on")
            #expect(sink.requests.isEmpty, "nothing is sent that is not recorded")
            try FileManager.default.removeItem(atPath: filler)
            try daemon.waitForEvent("recorded_late", timeout: 30) { $0.contains("detection_automatic_fall") }
            try daemon.waitForEvent("recorded_late", timeout: 30) { $0.contains("from=api") }
            try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=EMERGENCY_SENT") }
            #expect(daemon.waitForExit(timeout: 90), "\(daemon.logLines.suffix(20).joined(separator: "\n"))")
            #expect(RunCommandTests.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
            let incidents = try WorkflowStore(path: disk + "/detectord.sqlite").incidents()
            #expect(incidents.count == 1 && incidents.first?.sentAt != nil)
        }
    }

    /// The device is set down while the disk is full: the change of wear the store could not take
    /// is tried again each tick. It was dropped, and as the monitor reports only changes the
    /// device stayed "worn" in the store (and its wearer untold) until the next removal.
    @Test func aChangeOfWearTheFullDiskMissedIsRecordedLater() throws {
        try Self.withSmallDisk { setup, disk, sink in
            let resting = try setup.write(restingCSV: 120, gaps: [], named: "resting.csv")
            try setup.write(replay: resting, speed: 4, webhook: sink.url)
            let daemon = try setup.start(["--db", disk + "/detectord.sqlite"])
            defer { daemon.kill9() }
            let base = try daemon.apiBase()
            let filler = disk + "/filler"
            Self.fill(filler)
            func detector() throws -> [String: Any] { try DaemonProcess.request(base + "/api/status").body["detector"] as? [String: Any] ?? [:] }
            let deadline = Date().addingTimeInterval(30)
            while try detector()["worn"] as? Bool != false, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
            let missed = try detector()
            #expect(missed["worn"] as? Bool == false && missed["not_worn_since"] == nil, "the monitor found it off; the store missed it: \(missed)")
            try FileManager.default.removeItem(atPath: filler)
            try daemon.waitForEvent("not_worn", timeout: 15)
            let recorded = try detector()
            #expect(recorded["not_worn_since"] is String, "\(recorded)")
        }
    }

    /// Stopped while an SOS still waits for the full disk: it gets a last try, and what cannot be
    /// recorded is said in the log, each one (it vanished without a word).
    @Test func aStopWithAnSOSTheDiskCouldNotTakeSaysSo() throws {
        try Self.withSmallDisk { setup, disk, sink in
            try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, webhook: sink.url)
            let daemon = try setup.start(["--db", disk + "/detectord.sqlite"])
            defer { daemon.kill9() }
            try daemon.waitForEvent("api", timeout: 30)
            Self.fill(disk + "/filler")
            let sos = try DaemonProcess.request(try daemon.apiBase() + "/api/sos", method: "POST", json: [:])
            #expect(sos.status == 202 && sos.body["pending"] as? Bool == true, "\(sos.status) \(sos.text)")
            daemon.terminate()
            #expect(daemon.waitForExit(timeout: 30))
            #expect(daemon.logLines.contains { DaemonProcess.eventType(of: $0) == "error" && $0.contains("not recorded") && $0.contains("from api") },
                    "\(daemon.logLines.suffix(10).joined(separator: "\n"))")
        }
    }

    /// The disk fills during the countdown: its end cannot be recorded, which the person and the
    /// log are told (not a silent countdown stuck at zero), and the alert goes once it can.
    @Test func aDiskThatFillsDuringTheCountdownIsToldAndTheAlertGoesLater() throws {
        try Self.withSmallDisk { setup, disk, sink in
            try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, countdown: 3, webhook: sink.url)
            let daemon = try setup.start(["--db", disk + "/detectord.sqlite"])
            defer { daemon.kill9() }
            try daemon.waitForEvent("transition", timeout: 90) { $0.contains("to=ALERT_COUNTDOWN") }
            let filler = disk + "/filler"
            Self.fill(filler)
            try daemon.waitForEvent("error", timeout: 15) { $0.contains("wait until the store takes writes again") }
            #expect(sink.requests.isEmpty, "nothing is sent that is not recorded")
            try FileManager.default.removeItem(atPath: filler)
            try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }
            #expect(RunCommandTests.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
        }
    }

    /// The keychain's SOS while the disk is full: kept like the API's, told as an error, recorded
    /// once the disk takes writes again, and its alert sent once.
    @Test func aKeychainSOSWhileTheDiskIsFullIsRecordedLate() throws {
        try Self.withSmallDisk { setup, disk, sink in
            try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 1, webhook: sink.url, extra: """

                [keychain]
                kind = "simulated"
                """)
            let daemon = try setup.start(["--db", disk + "/detectord.sqlite"])
            defer { daemon.kill9() }
            try daemon.waitForEvent("keychain", timeout: 30) { $0.contains("state=connected") }
            let base = try daemon.apiBase()
            let filler = disk + "/filler"
            Self.fill(filler)
            #expect(try DaemonProcess.request(base + "/api/keychain/press", method: "POST", json: ["pattern": "single"]).status == 200)
            try daemon.waitForEvent("error", timeout: 10) { $0.contains("tried again every second") }
            Thread.sleep(forTimeInterval: 2)
            #expect(sink.requests.isEmpty, "nothing is sent that is not recorded")
            try FileManager.default.removeItem(atPath: filler)
            try daemon.waitForEvent("recorded_late", timeout: 30) { $0.contains("from=keychain") }
            try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }
            let alerts = RunCommandTests.messages(sink, kind: "alert")
            #expect(alerts.count == 1 && alerts.first?.1["trigger"] as? String == "manual", "\(sink.requests.count) requests")
        }
    }

    /// The wall clock stepped under a running daemon (libfaketime in front of the real clock, the
    /// monotonic clock left alone, as NTP does to a Pi without a real-time clock): an hour forward
    /// during the countdown must not end it at once, the hour back must not add an hour to it.
    @Test func aClockSetDuringTheCountdownKeepsItsTimeAndTheAlertGoesOnce() throws {
        let faketime = "/usr/bin/faketime"
        try #require(FileManager.default.fileExists(atPath: faketime), "\(faketime) is missing: `make test` installs Debian's faketime")
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let offset = setup.directory.appendingPathComponent("clock-offset").path
        func setClock(_ text: String) throws { try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: offset), options: .atomic) }
        try setClock("+0")
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, countdown: 20, webhook: sink.url)
        // The wrapper sets up libfaketime's shared state (preloading the library by hand leaves a
        // Swift program without its arguments); its FAKETIME is dropped so the file rules the clock.
        let daemon = try setup.start(launcher: [
            faketime, "-f", "+0", "/usr/bin/env", "-u", "FAKETIME", "FAKETIME_TIMESTAMP_FILE=\(offset)", "FAKETIME_CACHE_DURATION=1",
            "FAKETIME_DONT_FAKE_MONOTONIC=1",
        ])
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        try daemon.waitForEvent("transition", timeout: 90) { $0.contains("to=ALERT_COUNTDOWN") }
        let countdownSeen = Date()

        try setClock("+3600")
        let forward = try daemon.waitForEvent("clock_step", timeout: 10)
        #expect(abs((DaemonProcess.value("step_s", in: forward).flatMap(Double.init) ?? 0) - 3600) < 2, "\(forward)")
        let status = try DaemonProcess.request(base + "/api/status")
        let left = (status.body["workflow"] as? [String: Any])?["countdown_s"] as? Double ?? 0
        #expect(left > 10, "the countdown keeps its seconds: \(status.text)")
        #expect(!daemon.logLines.contains { $0.contains("to=EMERGENCY_SENDING") }, "an hour forward does not end the countdown")

        try setClock("+0")
        let back = try daemon.waitForEvent("clock_step", timeout: 10) { $0.contains("step_s=-") }
        #expect(abs((DaemonProcess.value("step_s", in: back).flatMap(Double.init) ?? 0) + 3600) < 2, "\(back)")
        try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }
        let countdown = Date().timeIntervalSince(countdownSeen)
        #expect(countdown > 15 && countdown < 28, "the countdown lasted \(countdown) s, not an hour more or less")
        #expect(RunCommandTests.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
        let journal = try WorkflowStore(path: setup.databasePath).journal()
        #expect(journal.filter { $0.type == "clock_step" }.count == 2, "\(journal.map(\.type))")
    }

    /// A database on a file system that went read-only before the start (an SD card the kernel
    /// remounted after errors): the daemon still protects the wearer from a copy in memory, says
    /// so in the log and the status, and the fall's alert goes out once.
    @Test func aReadOnlyDatabaseStillProtectsAndSaysSo() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let disk = try Self.smallDisk(in: setup)
        defer { _ = try? Self.run("/bin/umount", ["-l", disk]) }
        let database = disk + "/detectord.sqlite"
        try WorkflowStore(path: database).saveContact(Contact(name: "Set up earlier", phone: "+351917777777", channel: "webhook"))
        try #require(try Self.run("/bin/mount", ["-o", "remount,ro", disk]) == 0, "cannot remount \(disk) read-only")
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, contacts: nil, webhook: sink.url)
        let daemon = try setup.start(["--db", database])
        defer { daemon.kill9() }
        let storage = try daemon.waitForEvent("storage", timeout: 30)
        #expect(storage.contains("running from a copy in memory"), "\(storage)")
        let status = try DaemonProcess.request(try daemon.apiBase() + "/api/status").body
        let reported = status["storage"] as? [String: Any]
        #expect(reported?["durable"] as? Bool == false && (reported?["problem"] as? String)?.contains(database) == true, "\(status)")
        try daemon.waitForEvent("transition", timeout: 90) { $0.contains("to=EMERGENCY_SENT") }
        let alerts = RunCommandTests.messages(sink, kind: "alert")
        #expect(alerts.count == 1, "the contact the file held is told, once: \(sink.requests.count) requests")
        #expect(alerts.first?.1["recipient"] as? String == "+351917777777", "\(alerts.first?.1 ?? [:])")
    }

    /// A disk already full when the daemon starts (the journal filled it overnight): the file's
    /// contacts cannot even be written, so the daemon runs from a copy in memory and says so,
    /// and a fall is still told. Before, it exited, and systemd restarted it into the same wall.
    @Test func aDiskFullAtTheStartStillProtectsAndSaysSo() throws {
        try Self.withSmallDisk { setup, disk, sink in
            let database = disk + "/detectord.sqlite"
            try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, webhook: sink.url)
            // Killed (a power cut) with its write-ahead log behind, which the next start appends to.
            let before = try setup.start(["--db", database])
            _ = try before.waitForEvent("start", timeout: 30)
            before.kill9()
            #expect(FileManager.default.fileExists(atPath: database + "-wal"))
            Self.fill(disk + "/filler")
            let daemon = try setup.start(["--db", database])
            defer { daemon.kill9() }
            let storage = try daemon.waitForEvent("storage", timeout: 30)
            #expect(storage.contains("disk is full") && storage.contains("running from a copy in memory"), "\(storage)")
            try daemon.waitForEvent("transition", timeout: 90) { $0.contains("to=EMERGENCY_SENT") }
            let alerts = RunCommandTests.messages(sink, kind: "alert")
            #expect(alerts.count == 1 && alerts.first?.1["recipient"] as? String == "+351913333333", "the file's contact is told, once: \(alerts)")
        }
    }

    /// A restart during the countdown beeps the keychain again: the alarm still sounds, and the
    /// wearer must be able to hear it to stop a false one. Before, the keychain stayed silent.
    @Test func aRestartDuringTheCountdownBeepsTheKeychainAgain() async throws {
        let protected = try ProtectedStore("beep-restart")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        try store.apply(.detection(.automaticFall), at: WorkflowService.utcNow())
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let beeps = Mutex<[Bool]>([])
        let workflow = WorkflowService(
            store: store, hub: EventHub(logger: logger), metrics: DaemonMetrics(), wakeDispatcher: {},
            beep: { on in beeps.withLock { $0.append(on) } })
        let group = ServiceGroup(services: [workflow], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        #expect(await KeychainServiceTests.eventually { beeps.withLock { $0 } == [true] }, "\(beeps.withLock { $0 })")
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// A sensor fault noticed just before NTP set the clock three days on, and recorded just
    /// after the store's times were moved by that step: it keeps its age (5 s) on the new clock.
    /// Read from the wall clock by the detector's thread, it was three days old at once, and the
    /// contacts' "sensor fault" message went at the next tick.
    @Test func aFaultNoticedBeforeAClockStepKeepsItsAgeAfterIt() async throws {
        let protected = try ProtectedStore("fault-step")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = EventHub(logger: logger)
        let start = WorkflowService.utcNow()
        let origin = MonotonicTime.nowNanoseconds()
        let step = Atomic<Int64>(0)
        let clock = WallClock(store: store, hub: hub, wall: { start + (MonotonicTime.nowNanoseconds() - origin) + step.load(ordering: .relaxed) })
        _ = clock.now()
        let workflow = WorkflowService(store: store, hub: hub, metrics: DaemonMetrics(), wakeDispatcher: {}, clock: clock)
        let group = ServiceGroup(services: [workflow], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        let noticed = MonotonicTime.nowNanoseconds() - 5_000_000_000
        step.store(72 * 3_600_000_000_000, ordering: .relaxed)
        workflow.submit(.sensorFault(isFaulty: true, sinceMonotonic: noticed))
        func since() -> Date? {
            guard let line = (try? store.journal())?.last(where: { $0.type == "sensor_fault" }),
                let object = try? JSONSerialization.jsonObject(with: Data(line.payload.utf8)) as? [String: String],
                let text = object["since"] else { return nil }
            return ISO8601DateFormatter().date(from: text)
        }
        #expect(await KeychainServiceTests.eventually { since() != nil })
        let recorded = try #require(since()).timeIntervalSince1970
        let expected = Double(start + 72 * 3_600_000_000_000) / 1e9 - 5
        #expect(abs(recorded - expected) < 2, "since \(recorded - expected) s off")
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// A device left off across a restart: the monitor, which starts from "worn", finds it off
    /// again and the episode goes on from its start, told once. Before, each start ended it, so
    /// the wearer was told again after every restart (and never with restarts under 30 min
    /// apart). A device put back on while the daemon was down is let go after the window.
    @Test func aNotWornEpisodeOutlivesARestart() async throws {
        let protected = try ProtectedStore("wear-restart")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let s: Int64 = 1_000_000_000
        let off = WorkflowService.utcNow() - 7200 * s
        try store.transaction { tx in
            try tx.recordWear(isWorn: false, since: off, at: off + 40 * s)
            _ = try tx.remindNotWorn(afterSeconds: 1800, at: off + 1800 * s)
        }
        let told = try store.waiting().filter { $0.kind == "not_worn" }.count
        #expect(told > 0)
        func run(_ body: (WorkflowService) async throws -> Void) async throws {
            let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            let workflow = WorkflowService(store: store, hub: EventHub(logger: logger), metrics: DaemonMetrics(), notWornMessageAfter: 1800,
                                           wakeDispatcher: {}, wearConfirmSeconds: 1)
            let group = ServiceGroup(services: [workflow], logger: logger)
            let running = Task { try await group.run() }
            defer { running.cancel() }
            try await body(workflow)
            await group.triggerGracefulShutdown()
            _ = try? await running.value
        }
        try await run { workflow in
            workflow.submit(.wear(isWorn: false, sinceMonotonic: MonotonicTime.nowNanoseconds()))
            try await Task.sleep(for: .milliseconds(2500)) // past the window and a tick or two
            #expect(try store.transaction { try $0.notWornSince() } == off, "the episode goes on from its start")
            #expect(try store.waiting().filter { $0.kind == "not_worn" }.count == told, "and is not told again")
        }
        try await run { _ in
            #expect(await KeychainServiceTests.eventually { (try? store.transaction { try $0.notWornSince() }) == nil },
                    "put back on while the daemon was down: over once the window passed without news")
        }
    }

    /// A keychain SOS after an emergency ended ("I didn't fall") starts a new one, through the
    /// press policy the daemon runs every press by. Before, the policy dropped it: "only the PIN
    /// disarms", in a state where nobody may ever answer the survey.
    @Test func aKeychainSOSAfterAnEmergencyEndedStartsANewOne() async throws {
        let protected = try ProtectedStore("ended-sos")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let s: Int64 = 1_000_000_000
        let now = WorkflowService.utcNow()
        try store.apply(.sos(fromKeychain: false), at: now - 60 * s)
        try store.apply(.tick, at: now - 25 * s)
        try store.apply(.disarm(.correct), at: now - 20 * s)
        try store.apply(.survey(.didntFall), at: now - 10 * s)
        #expect(try store.workflow().state == .emergencyEnded)
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let workflow = WorkflowService(store: store, hub: EventHub(logger: logger), metrics: DaemonMetrics(), wakeDispatcher: {})
        let group = ServiceGroup(services: [workflow], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        workflow.submit(.keychainPress(.single, policy: try KeychainPressPolicy(), receivedAt: nil))
        #expect(await KeychainServiceTests.eventually { (try? store.workflow())?.state == .alertCountdown })
        #expect(try store.workflow().trigger == .manual)
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// The workflow tells the detector when the wearer's answer makes it watch again, and only
    /// then: after "I'm fine" a second fall must start a new countdown at once
    /// (`DetectionPipeline.rearm()`); a countdown its own stages withdrew keeps the period.
    @Test func goingBackToWatchingRearmsTheDetector() async throws {
        let protected = try ProtectedStore("rearm")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        final class Count: Sendable { let value = Atomic<Int>(0) }
        let rearms = Count()
        let workflow = WorkflowService(
            store: store, hub: EventHub(logger: logger), metrics: DaemonMetrics(), wakeDispatcher: {},
            rearmDetector: { rearms.value.add(1, ordering: .relaxed) })
        let group = ServiceGroup(services: [workflow], logger: logger)
        let running = Task { try await group.run() }
        defer { running.cancel() }

        let before = rearms.value.load(ordering: .relaxed)
        _ = await workflow.apply(.detection(.automaticFall), origin: "detector")
        #expect(try store.workflow().state == .alertCountdown)
        #expect(rearms.value.load(ordering: .relaxed) == before, "a countdown is no reason to re-arm")
        // Withdrawn by the detector's own stage (up again): the refractory period stands.
        _ = await workflow.apply(.followUp(.gotUp), origin: "detector")
        #expect(try store.workflow().state == .noEmergency)
        #expect(rearms.value.load(ordering: .relaxed) == before, "the detector's own withdrawal does not re-arm it")
        _ = await workflow.apply(.detection(.automaticFall), origin: "detector")
        #expect(try store.workflow().state == .alertCountdown)
        _ = await workflow.apply(.imFine, origin: "page")
        #expect(try store.workflow().state == .noEmergency)
        #expect(rearms.value.load(ordering: .relaxed) == before + 1)
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}
