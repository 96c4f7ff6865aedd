import FallDetect
import Synchronization
import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct BluetoothKeychainTests {
    static let address = BluetoothAddress("FF:FF:10:20:30:40")!

    final class EventLog: Sendable {
        private let events = Mutex<[KeychainEvent]>([])
        func append(_ event: KeychainEvent) { events.withLock { $0.append(event) } }
        var all: [KeychainEvent] { events.withLock { $0 } }
    }

    /// A keychain on a fake iTag, running; events read with a deadline so a missing one fails
    /// rather than hangs.
    final class Rig: Sendable {
        let tag: FakeGATTPeripheral
        let connector: FakePeripheralConnector
        let keychain: BluetoothKeychain
        let collected: EventLog
        let runner: Task<Void, Never>
        let reader: Task<Void, Never>

        init(timing: PressTiming = PressTiming(debounce: 0.05, window: 0.3), atOnce: Bool = false, beepRefresh: Double = 10,
             database: FakeGATTDatabase = .iTag(), batteryReadInterval: Double = 3600,
             behaviour: FakePeripheralBehaviour = FakePeripheralBehaviour(), profile: KeychainProfile = KeychainProfile()) throws {
            tag = try FakeGATTPeripheral(address: BluetoothKeychainTests.address, database: database)
            tag.behaviour = behaviour
            connector = FakePeripheralConnector(tag)
            keychain = BluetoothKeychain(summary: "test", connector: connector, profile: profile, timing: timing, decidesSingleAtOnce: atOnce,
                                         reconnect: KeychainReconnect(initialDelay: 0.05, maximumDelay: 0.2, connectTimeout: 1),
                                         beepRefresh: beepRefresh, batteryReadInterval: batteryReadInterval)
            let collected = EventLog()
            self.collected = collected
            runner = Task { [keychain] in await keychain.run() }
            reader = Task { [keychain] in for await event in keychain.events { collected.append(event) } }
        }

        var events: [KeychainEvent] { collected.all }
        var presses: [KeychainPress] { events.compactMap { if case .press(let p, _) = $0 { p } else { nil } } }

        /// Waits until `condition` holds on the events, up to `seconds`.
        func wait(_ seconds: Double = 3, until condition: ([KeychainEvent]) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if condition(events) { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return condition(events)
        }

        func connected(count: Int = 1) async -> Bool { await wait { $0.filter { $0 == .connected }.count >= count } }

        func shutDown() async {
            keychain.stop()
            await runner.value
            await reader.value
            tag.stop()
        }
    }

    /// A clone whose battery level only reads is read again now and then: over weeks of one
    /// link, a battery running down is still seen. A tag that notifies is not read again.
    @Test func aBatteryThatDoesNotNotifyIsReadAgain() async throws {
        let rig = try Rig(database: .iTag(battery: 80, batteryNotifies: false), batteryReadInterval: 0.2)
        #expect(await rig.connected())
        #expect(rig.events.contains(.battery(percent: 80)))
        rig.tag.setBattery(12)
        #expect(await rig.wait { $0.last == .battery(percent: 12) }, "\(rig.events)")
        #expect(rig.tag.record.valuesSent == 0, "read, not notified")
        await rig.shutDown()

        let notifying = try Rig(batteryReadInterval: 0.1)
        #expect(await notifying.connected())
        let readsAtConnect = notifying.tag.record.received.filter { if case .readRequest = $0 { true } else { false } }.count
        try await Task.sleep(for: .milliseconds(500))
        #expect(notifying.tag.record.received.filter { if case .readRequest = $0 { true } else { false } }.count == readsAtConnect)
        await notifying.shutDown()
    }

    @Test func eachPressPatternIsToldApart() async throws {
        // A wide window and well-spaced presses, so a busy machine's scheduling cannot merge or
        // split them; the exact edges are PressClassifierTests' business.
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 1))
        #expect(await rig.connected())
        #expect(rig.events.contains(.battery(percent: 96)))
        func burst(_ count: Int) async throws {
            for _ in 0..<count {
                rig.tag.press()
                try await Task.sleep(for: .milliseconds(150))
            }
        }
        try await burst(1)
        #expect(await rig.wait { _ in rig.presses == [.single] })
        try await Task.sleep(for: .milliseconds(1100))
        try await burst(2)
        #expect(await rig.wait { _ in rig.presses == [.single, .double] })
        try await Task.sleep(for: .milliseconds(1100))
        try await burst(4)
        #expect(await rig.wait { _ in rig.presses == [.single, .double, .triple] })
        try await Task.sleep(for: .milliseconds(1100))
        #expect(rig.presses == [.single, .double, .triple], "the fourth press of a burst is not another pattern")
        await rig.shutDown()
    }

    @Test func repeatedNotificationsOfOnePressAreCollapsed() async throws {
        let rig = try Rig()
        #expect(await rig.connected())
        rig.tag.press(repeats: 3)
        #expect(await rig.wait { _ in rig.presses == [.single] })
        try await Task.sleep(for: .milliseconds(400))
        #expect(rig.presses == [.single])
        #expect(rig.keychain.snapshot.notifications == 3)
        await rig.shutDown()
    }

    @Test func aSinglePressIsDecidedAtOnceWhenNothingLongerMeansAnything() async throws {
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 3), atOnce: true)
        #expect(await rig.connected())
        rig.tag.press()
        #expect(await rig.wait(0.5) { _ in rig.presses == [.single] }, "well before the 3 s window")
        await rig.shutDown()
    }

    /// A press while the optional set-up steps still run (battery, Link Loss, Immediate Alert)
    /// is served at once. It waited for them: about half a second, and up to a request timeout
    /// each with a tag gone quiet.
    @Test func aPressDuringTheOptionalSetUpIsServedAtOnce() async throws {
        var behaviour = FakePeripheralBehaviour()
        behaviour.silentOnceSubscribed = true
        var profile = KeychainProfile()
        profile.requestTimeout = 4
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 3), atOnce: true, behaviour: behaviour, profile: profile)
        let subscribed = await rig.wait { _ in
            rig.tag.record.received.contains { if case .writeRequest(_, [0x01, 0x00]) = $0 { true } else { false } }
        }
        #expect(subscribed)
        rig.tag.press()
        #expect(await rig.wait(1.5) { _ in rig.presses == [.single] }, "well before the set-up's 4 s timeout: \(rig.events)")
        #expect(!rig.events.contains(.connected), "no connection until the set-up is done: \(rig.events)")
        await rig.shutDown()
    }

    /// A tag that stops answering right after its button is subscribed: the set-up times out,
    /// but the press that came meanwhile is the wearer's and must not be lost with the bearer.
    @Test func aPressDuringASetUpThatTimesOutIsKept() async throws {
        var behaviour = FakePeripheralBehaviour()
        behaviour.silentOnceSubscribed = true
        var profile = KeychainProfile()
        profile.requestTimeout = 0.4
        // The press is still being classified when the bearer closes on the timeout: a closed
        // link's pending presses are dropped only when the tag dropped it (switched off).
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 1), behaviour: behaviour, profile: profile)
        let subscribed = await rig.wait { _ in
            rig.tag.record.received.contains { if case .writeRequest(_, [0x01, 0x00]) = $0 { true } else { false } }
        }
        #expect(subscribed)
        rig.tag.press()
        #expect(await rig.wait { _ in rig.presses == [.single] }, "\(rig.events)")
        #expect(await rig.wait { _ in rig.keychain.snapshot.lastError?.contains("no answer to ATT request") == true },
                "\(rig.keychain.snapshot.lastError ?? "none")")
        // A failed attempt, not a link that came and went: the wearer is told it is lost in time.
        #expect(!rig.events.contains { $0 == .connected || { if case .disconnected = $0 { true } else { false } }($0) }, "\(rig.events)")
        #expect(rig.keychain.snapshot.connections == 0 && rig.keychain.snapshot.drops == 0)
        await rig.shutDown()
    }

    /// The link drops in the set-up right after the button was subscribed and a press came.
    /// Decided at once, the press is served: a moment later, on a finished link, it would have
    /// been. Still being classified, it is taken as the tag switched off by a long press, as on
    /// any link. Either way the attempt failed: no connection is counted.
    @Test(arguments: [true, false])
    func aPressBeforeTheLinkDropsInTheSetUpIsServedAsOnAnyLink(atOnce: Bool) async throws {
        // Where the subscription comes in an iTag's set-up: the request after it is dropped.
        let probe = try FakeGATTPeripheral(address: Self.address)
        let socket = try await FakePeripheralConnector(probe).connect(timeout: 1)
        let bearer = try ATTBearer(socket: socket, label: "probe", defaultTimeout: 2)
        _ = try await KeychainSession.open(bearer, profile: KeychainProfile())
        bearer.close()
        probe.stop()
        let subscription = try #require(probe.record.received.firstIndex {
            if case .writeRequest(_, [0x01, 0x00]) = $0 { true } else { false }
        })
        var behaviour = FakePeripheralBehaviour()
        behaviour.pressedOnSubscription = true
        behaviour.disconnectAfterRequests = subscription + 2
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 1), atOnce: atOnce, behaviour: behaviour)
        #expect(await rig.wait { _ in rig.keychain.snapshot.lastError?.contains("set-up cut short") == true },
                "\(rig.keychain.snapshot.lastError ?? "none")")
        // Every attempt is cut short the same way, each with its press.
        if atOnce {
            #expect(await rig.wait { _ in !rig.presses.isEmpty && rig.presses.allSatisfy { $0 == .single } }, "\(rig.events)")
        } else {
            try await Task.sleep(for: .milliseconds(1500))
            #expect(rig.presses.isEmpty, "\(rig.events)")
        }
        #expect(!rig.events.contains(.connected), "\(rig.events)")
        #expect(rig.keychain.snapshot.connections == 0)
        await rig.shutDown()
    }

    /// Only a lone press before the tag itself ended the link is taken for a long press that
    /// switched it off. A double, or a press before the radio lost the link (a supervision
    /// timeout: the wearer lying on the tag), is the wearer's.
    @Test func onlyALonePressBeforeTheTagEndedTheLinkIsASwitchOff() {
        #expect(BluetoothKeychain.switchedOff(open: 1, by: .disconnected(errno: ECONNRESET)))
        #expect(BluetoothKeychain.switchedOff(open: 1, by: .disconnected(errno: 0)), "the socket did not say why")
        #expect(!BluetoothKeychain.switchedOff(open: 1, by: .disconnected(errno: ETIMEDOUT)))
        #expect(!BluetoothKeychain.switchedOff(open: 1, by: .timeout(request: 0x0A, seconds: 2)))
        #expect(!BluetoothKeychain.switchedOff(open: 1, by: nil), "we closed it (a set-up cut short)")
        #expect(!BluetoothKeychain.switchedOff(open: 2, by: .disconnected(errno: ECONNRESET)))
        #expect(!BluetoothKeychain.switchedOff(open: 0, by: .disconnected(errno: ECONNRESET)))
    }

    /// A double press (an SOS pattern) whose window the tag's drop cuts is still served when
    /// the window closes: a long press that switches the tag off sends one notification, not two.
    @Test func aDoubleCutByTheLinkDroppingIsServed() async throws {
        let rig = try Rig(timing: PressTiming(debounce: 0.05, window: 0.8))
        #expect(await rig.connected())
        rig.tag.press()
        try await Task.sleep(for: .milliseconds(150))
        rig.tag.press()
        try await Task.sleep(for: .milliseconds(100))
        rig.tag.disconnect()
        #expect(await rig.wait { _ in rig.presses == [.double] }, "\(rig.events)")
        await rig.shutDown()
    }

    /// A connector whose connect waits out its whole timeout, as for a tag out of range, and
    /// says whether it was cancelled.
    final class WaitingConnector: KeychainConnector {
        let started = Mutex(0)
        let cancelled = Mutex(false)
        var summary: String { "waiting" }

        func connect(timeout: Double) async throws(ATTError) -> ATTSocket {
            started.withLock { $0 += 1 }
            do {
                try await Task.sleep(for: .seconds(timeout))
            } catch {
                cancelled.withLock { $0 = true }
                throw .closed
            }
            throw .system(errno: ETIMEDOUT, operation: "connect")
        }
    }

    /// A stop (a re-pairing reloads the keychain) cancels a connect still waiting: left to run,
    /// it could reach the tag once it advertises again and hold its only link.
    @Test func aStopCancelsAConnectStillWaiting() async throws {
        let connector = WaitingConnector()
        let keychain = BluetoothKeychain(summary: "test", connector: connector, reconnect: KeychainReconnect(connectTimeout: 15))
        let runner = Task { await keychain.run() }
        let deadline = ContinuousClock.now + .seconds(3)
        while connector.started.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        keychain.stop()
        await runner.value
        let cancelDeadline = ContinuousClock.now + .seconds(2)
        while !connector.cancelled.withLock({ $0 }), ContinuousClock.now < cancelDeadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(connector.started.withLock { $0 } == 1)
        #expect(connector.cancelled.withLock { $0 }, "the connect was left waiting")
    }

    @Test func theBeeperFollowsAndIsRestoredAfterAReconnect() async throws {
        let rig = try Rig(beepRefresh: 0.1)
        #expect(await rig.connected())
        await rig.keychain.setBeeping(true)
        #expect(await rig.wait { _ in rig.tag.record.alertLevels.count >= 3 }, "refreshed while on")
        rig.tag.disconnect()
        #expect(await rig.wait { $0.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(await rig.connected(count: 2))
        let before = rig.tag.record.alertLevels.count
        #expect(await rig.wait { _ in rig.tag.record.alertLevels.count > before }, "beeping again after the reconnect")
        await rig.keychain.setBeeping(false)
        #expect(await rig.wait { _ in rig.tag.record.alertLevels.last == 0 })
        let stopped = rig.tag.record.alertLevels.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.tag.record.alertLevels.count == stopped, "silent once off")
        #expect(rig.tag.record.alertLevels.allSatisfy { $0 == 2 || $0 == 0 })
        await rig.shutDown()
    }

    /// Reconnections and quick off-on changes during an alarm each used to start another refresh
    /// chain, writing the beeper that many times more often (the tag's battery, when it matters).
    @Test func reconnectionsDuringAnAlarmKeepOneRefresh() async throws {
        let rig = try Rig(beepRefresh: 0.2)
        #expect(await rig.connected())
        await rig.keychain.setBeeping(true)
        for round in 2...4 {
            rig.tag.disconnect()
            #expect(await rig.connected(count: round))
            await rig.keychain.setBeeping(false)
            await rig.keychain.setBeeping(true)
        }
        try await Task.sleep(for: .milliseconds(300))
        let before = rig.tag.record.alertLevels.count
        try await Task.sleep(for: .milliseconds(1000))
        let writes = rig.tag.record.alertLevels.count - before
        #expect(writes <= 8, "\(writes) beeper writes in 1 s with a 0.2 s refresh: more than one refresh is running")
        await rig.shutDown()
    }

    @Test func aTestBeepIsShortAndMild() async throws {
        let rig = try Rig()
        #expect(await rig.connected())
        rig.keychain.testBeep(seconds: 0.1)
        #expect(await rig.wait { _ in rig.tag.record.alertLevels == [1, 0] })
        await rig.shutDown()
    }

    @Test func aLinkOutOfRangeIsRetriedWithBackoffAndReturns() async throws {
        let rig = try Rig()
        #expect(await rig.connected())
        rig.connector.inRange = false
        rig.tag.press()
        try await Task.sleep(for: .milliseconds(20))
        rig.tag.disconnect()
        #expect(await rig.wait { $0.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(rig.presses.isEmpty, "a press the link dropped after is a long press that switched the tag off")
        try await Task.sleep(for: .milliseconds(600))
        let attempts = rig.keychain.snapshot.attempts
        #expect(attempts >= 3 && attempts <= 8, "\(attempts) attempts in 0.6 s with 0.05-0.2 s backoff")
        #expect(rig.keychain.snapshot.lastError?.contains("out of range") == true, "\(rig.keychain.snapshot.lastError ?? "")")
        rig.connector.inRange = true
        #expect(await rig.connected(count: 2))
        rig.tag.setBattery(255)  // "unknown" on some tags: no percentage
        rig.tag.setBattery(15)
        #expect(await rig.wait { $0.last == .battery(percent: 15) })
        #expect(!rig.events.contains(.battery(percent: 255)), "\(rig.events)")
        await rig.shutDown()
    }

    /// A tag that hangs up as soon as it is set up (at the edge of range, a battery that browns
    /// out): reconnecting backs off as after failed attempts, instead of going round at once.
    @Test func aLinkThatDropsAtOnceIsRetriedWithBackoff() async throws {
        let rig = try Rig()
        #expect(await rig.connected())
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(800) {
            if rig.keychain.snapshot.connected { rig.tag.disconnect() }
            try await Task.sleep(for: .milliseconds(2))
        }
        let connections = rig.keychain.snapshot.connections
        #expect(connections >= 2 && connections <= 10, "\(connections) connections in 0.8 s with 0.05-0.2 s backoff")
        await rig.shutDown()
    }

    @Test func malformedAndUnexpectedPDUsNeverBreakTheLink() async throws {
        let rig = try Rig()
        #expect(await rig.connected())
        for frame: [UInt8] in [[], [0x1B], [0x1B, 0x01], [0x1D], [0x09, 7, 1], [0x01, 0x0A], [0x02], [0xFF, 1, 2], [0x30, 1], [0x0B, 1, 2, 3], [0x13]] {
            rig.tag.sendRaw(frame)
        }
        rig.tag.ask(.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService))
        rig.tag.ask(.exchangeMTURequest(mtu: 23))
        #expect(await rig.wait { _ in rig.tag.record.answers.count >= 4 })
        #expect(rig.tag.record.answers.contains(.exchangeMTUResponse(mtu: 517)))
        #expect(rig.tag.record.answers.contains(.errorResponse(request: 0x10, handle: 1, code: .attributeNotFound)))
        #expect(rig.tag.record.answers.contains(.errorResponse(request: 0x02, handle: 0, code: .invalidPDU)))
        #expect(rig.tag.record.answers.contains(.errorResponse(request: 0x30, handle: 0, code: .requestNotSupported)))
        #expect(rig.tag.record.answers.count == 4, "malformed notifications, responses to nothing and commands get no answer")
        rig.tag.press()
        #expect(await rig.wait { _ in rig.presses == [.single] })
        #expect(rig.keychain.snapshot.drops == 0)
        await rig.shutDown()
    }
}
