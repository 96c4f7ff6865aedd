import FallDetect
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import detectord

/// The detector's view of its sensor in the running daemon: a source that goes quiet is a sensor
/// fault within `stall_seconds`, and it recovers by itself when samples come again.
@Suite(.serialized) struct DetectorLoopTests {
    /// A profile switched on the page: the new pipeline keeps the mounting the running one has
    /// estimated, instead of judging nothing until it learns it again.
    @Test func aNewProfileKeepsTheMountingEstimate() throws {
        var running = try DetectionPipeline(profile: .walking, sampleRate: 100)
        running.mounting = try MountingEstimator(sampleRate: 100)
        for i in 0..<800 { _ = running.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1))) }
        try #require(running.mounting?.isEstimated == true, "8 s held still give an estimate")
        var replacement = try DetectionPipeline(profile: .cycling, sampleRate: 100)
        replacement.mounting = try MountingEstimator(sampleRate: 100)
        #expect(DetectorLoop.takingOver(replacement, from: running).mounting?.isEstimated == true)
        let fixed = try DetectionPipeline(profile: .cycling, sampleRate: 100)
        #expect(DetectorLoop.takingOver(fixed, from: running).mounting == nil, "a mapping given in the configuration stays given")
    }

    /// A source that ends while silent (a simulated chip's run over while it was unplugged):
    /// the loop itself says the fault is over, after the stall it told, so the workflow is not
    /// left with a fault (and a message to the contacts) for a sensor that simply finished.
    @Test func aSourceThatEndsWhileStalledClearsTheFault() throws {
        let ring = SampleRing(capacity: 256)
        final class Seen: Sendable {
            let outputs = Mutex<[String]>([])
            let stop = Atomic<Bool>(false)
        }
        let seen = Seen()
        let loop = DetectorLoop(ring: ring, pipeline: try DetectionPipeline(profile: .walking, sampleRate: 100), stallSeconds: 0.2, metrics: DaemonMetrics()) { output in
            switch output {
            case .sensorStalled: seen.outputs.withLock { $0.append("stalled") }
            case .sensorEndedWhileStalled: seen.outputs.withLock { $0.append("ended") }
            default: break
            }
        }
        let thread = Thread { loop.run { seen.stop.load(ordering: .acquiring) } }
        thread.start()
        defer {
            seen.stop.store(true, ordering: .releasing)
            loop.signalStop()
        }
        Thread.sleep(forTimeInterval: 0.5)
        loop.sourceDidEnd()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(seen.outputs.withLock { $0 } == ["stalled", "ended"])
    }

    /// A device lying off the body when the profile changes stays off for the new pipeline, so
    /// putting it back on is noticed.
    @Test func aNewProfileKeepsWhetherTheDeviceIsWorn() throws {
        var running = try DetectionPipeline(profile: .walking, sampleRate: 100)
        for i in 0..<9_000 { _ = running.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1))) }
        try #require(!running.isWorn, "90 s lying perfectly still is off the body")
        let next = DetectorLoop.takingOver(try DetectionPipeline(profile: .cycling, sampleRate: 100), from: running)
        #expect(!next.isWorn)
    }

    /// The pipeline built again for the rate the chip really runs at keeps the wear monitor's
    /// verdict and its stillness so far, though its windows are counted anew.
    @Test func aNewRateKeepsWhetherTheDeviceIsWorn() throws {
        var running = try DetectionPipeline(profile: .walking, sampleRate: 100)
        for i in 0..<9_000 { _ = running.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1))) }
        try #require(!running.isWorn)
        var next = DetectorLoop.takingOver(try DetectionPipeline(profile: .walking, sampleRate: 104), from: running)
        #expect(!next.isWorn)
        // Picked up and carried: worn again, reported once, at the new rate.
        var changes: [WearChange] = []
        for i in 0..<1_040 {
            let t = 90_000_000_000 + Int64(i) * 9_615_385
            let swing = Float(i % 104) / 104 * 2 * .pi
            _ = next.push(IMUSample(timestampNanoseconds: t, acceleration: SIMD3(0.5 * sin(swing), 0, cos(swing))))
            changes += next.takeWearChanges()
        }
        #expect(changes.map(\.isWorn) == [true], "\(changes)")
    }

    @Test func aStalledSourceIsAFaultWithinASecondAndRecoversByItself() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(restingCSV: 7, gap: 2.0...5.0, named: "gap.csv")
        let daemon = try setup.start(["--exit-when-idle"])
        let base = try daemon.apiBase()
        let start = try #require(DaemonProcess.time(of: try daemon.waitForEvent("start")))
        let fault = try daemon.waitForEvent("sensor_fault", timeout: 20)
        let status = try DaemonProcess.request(base + "/api/status")
        let sensor = status.body["sensor"] as? [String: Any] ?? [:]
        #expect(sensor["fault"] as? Bool == true, "\(status.text)")
        let recovered = try daemon.waitForEvent("sensor_recovered", timeout: 20)
        #expect(daemon.waitForExit(timeout: 30))
        // The gap starts 2 s into the replay; a fault must be reported within 1 s of it (and not
        // before), with a little room for the process's start.
        let faultAt = try #require(DaemonProcess.time(of: fault)) - start
        #expect(faultAt > 2.9 && faultAt < 3.6, "fault reported \(faultAt) s after start")
        let recoveredAt = try #require(DaemonProcess.time(of: recovered)) - start
        #expect(recoveredAt > 4.9 && recoveredAt < 5.6, "recovered \(recoveredAt) s after start")
        #expect(daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "sensor_fault" }.count == 1)
    }

    /// A sensor fault an earlier process saved (it was killed, or the device rebooted, while the
    /// sensor was stalled) clears once this process's samples have flowed steadily; it stayed for
    /// good, and a later real fault was neither recorded nor told. Not at the first sample: a
    /// sensor that keeps stalling would have its fault start anew at each restart.
    @Test func aFaultSavedByAnEarlierProcessClearsWhenSamplesAreSteady() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(restingCSV: 20, gaps: [], named: "steady.csv")
        do {
            let store = try WorkflowStore(path: setup.databasePath)
            try store.transaction { try $0.recordSensorFault(isFaulty: true, since: 1_000_000_000, at: 1_000_000_000) }
        }
        let daemon = try setup.start(["--exit-when-idle"])
        let base = try daemon.apiBase()
        func faultShows() throws -> Bool {
            let workflow = try DaemonProcess.request(base + "/api/status").body["workflow"] as? [String: Any] ?? [:]
            return workflow["sensor_fault_since"] != nil
        }
        try daemon.waitForEvent("start")
        Thread.sleep(forTimeInterval: 3)
        #expect(try faultShows(), "cleared before the samples were steady for \(DetectorLoop.steadySeconds) s")
        let clearedBy = Date().addingTimeInterval(DetectorLoop.steadySeconds + 3)
        var cleared = false
        while !cleared, Date() < clearedBy {
            cleared = try !faultShows()
            if !cleared { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(cleared, "the fault saved before the start still shows")
        #expect(daemon.waitForExit(timeout: 30))
    }

    /// A sensor that stalls and resumes every two seconds (a loose connector) is one fault from
    /// its first stall: it lasts long enough for `fault_message_minutes`, and the message gives
    /// the first stall's time. Before, each resume ended the fault, so none ever lasted the
    /// minutes the message waits for, and the contacts were never told.
    @Test func aSensorThatKeepsStallingIsOneFaultLongEnoughToTell() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        // 1.5 s without samples, then 0.5 s with, five times from 2 s on; steady after 11.5 s.
        let gaps: [ClosedRange<Double>] = (0..<5).map { (i: Int) -> ClosedRange<Double> in
            let start = 2.0 + 2.0 * Double(i)
            return start...(start + 1.5)
        }
        let path = try setup.write(restingCSV: 16, gaps: gaps, named: "flapping.csv")
        try setup.write(replay: "unused", sensor: """
            [sensor]
            source = "replay"
            stall_seconds = 1
            fault_message_minutes = 0.1

            [sensor.replay]
            path = "\(path)"
            """)
        let daemon = try setup.start(["--exit-when-idle"])
        defer { daemon.kill9() }
        let told = try daemon.waitForEvent("message", timeout: 30) { DaemonProcess.value("kind", in: $0) == "sensor_fault" }
        #expect(daemon.waitForExit(timeout: 30))
        let store = try WorkflowStore(path: setup.databasePath)
        let began = try store.journal().filter { $0.type == "sensor_fault" }
        #expect(began.count == 1, "one fault, from the first stall: \(began.map(\.payload))")
        #expect(daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "sensor_recovered" }.count == 5)
        #expect(try store.transaction { try $0.sensorFaultSince() } == nil, "over when the replay ended")
        _ = told
    }

    /// The loop on a thread of its own, as in the daemon, fed a synthetic fall up to 3 s after
    /// its detection, then (after `answer`) 8 s of standing and walking and the same fall again.
    /// The fall detections' sample times.
    static func twoFalls(answer: (DetectorLoop) async -> Void) async throws -> [Int64] {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        let rate = Float(fall.info.sensor.sampleRate)
        var profile = DetectionProfile.walking
        profile.recovery = nil  // nothing but the answer may end the refractory period
        var probe = try DetectionPipeline(profile: profile, sampleRate: rate)
        let detected = try #require(fall.samples.lazy.flatMap { probe.push($0) }.first { $0.kind == .fall }).timestampNanoseconds
        let firstPart = fall.samples.filter { $0.timestampNanoseconds <= detected + 3_000_000_000 }
        let start = fall.samples[0].timestampNanoseconds
        let period = Int64(1e9 / Double(rate))
        func shifted(_ samples: [IMUSample], to origin: Int64) -> [IMUSample] {
            samples.map { IMUSample(timestampNanoseconds: origin + $0.timestampNanoseconds - start, acceleration: $0.acceleration, angularRate: $0.angularRate) }
        }
        let standing = shifted(fall.samples.filter { $0.timestampNanoseconds - start < 8_000_000_000 }, to: (firstPart.last?.timestampNanoseconds ?? 0) + period)
        let secondPart = standing + shifted(fall.samples, to: (standing.last?.timestampNanoseconds ?? 0) + period)

        let ring = SampleRing(capacity: 1 << 16)
        let producer = ring.makeProducer()
        final class Shared: Sendable {
            let detections = Mutex<[Int64]>([])
            let stop = Atomic<Bool>(false)
        }
        let shared = Shared()
        let loop = DetectorLoop(ring: ring, pipeline: try DetectionPipeline(profile: profile, sampleRate: rate), stallSeconds: 60, metrics: DaemonMetrics()) {
            if case .detection(let event) = $0, event.kind == .fall { shared.detections.withLock { $0.append(event.timestampNanoseconds) } }
        }
        let thread = Thread { loop.run { shared.stop.load(ordering: .acquiring) } }
        thread.start()
        defer {
            shared.stop.store(true, ordering: .releasing)
            loop.signalStop()
        }
        func feed(_ samples: [IMUSample]) {
            samples.withUnsafeBufferPointer { _ = producer.push(contentsOf: $0) }
            loop.batchWritten()
        }
        feed(firstPart)
        try #require(await eventually(timeout: 20) { shared.detections.withLock { $0.count } == 1 }, "the first fall is detected")
        await answer(loop)
        feed(secondPart)
        let consumed = UInt64(firstPart.count + secondPart.count)
        _ = await eventually(timeout: 20) { loop.statistics.withLock { $0.samples } >= consumed }
        // A pass ends after the last sample was judged: the outputs of that pass are all out.
        let judged = loop.statistics.withLock { $0.lastPassNanoseconds }
        _ = await eventually(timeout: 5) { loop.statistics.withLock { $0.lastPassNanoseconds } > judged }
        return shared.detections.withLock { $0 }
    }

    /// "I'm fine" (or protection resumed) reaches the running detector: a second fall inside the
    /// refractory period is reported, where without the answer it is held back as the same event.
    @Test func anAnsweredAlertRearmsTheRunningDetector() async throws {
        let answered = try await Self.twoFalls { loop in
            loop.rearm()
            // Two passes after the call: the second surely began after it, so it took the flag up.
            let called = MonotonicTime.nowNanoseconds()
            _ = await eventually(timeout: 5) { loop.statistics.withLock { $0.lastPassNanoseconds } > called }
            let once = loop.statistics.withLock { $0.lastPassNanoseconds }
            _ = await eventually(timeout: 5) { loop.statistics.withLock { $0.lastPassNanoseconds } > once }
        }
        #expect(answered.count == 2, "\(answered)")
        if answered.count == 2 { #expect(answered[1] - answered[0] < 30_000_000_000, "inside what the gate alone would hold back") }
        let unanswered = try await Self.twoFalls { _ in }
        #expect(unanswered.count == 1, "\(unanswered)")
    }
}
