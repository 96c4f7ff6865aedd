import FallDetect
import Foundation
import Testing
@testable import detectord

/// The detector's view of its sensor in the running daemon: a source that goes quiet is a sensor
/// fault within `stall_seconds`, and it recovers by itself when samples come again.
@Suite(.serialized) struct DetectorLoopTests {
    /// 100 Hz of standing still, with the samples between `gap` missing.
    static func csv(seconds: Double, gap: ClosedRange<Double>) -> String {
        var text = "time,ax,ay,az,gx,gy,gz\n"
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            if gap.contains(t) { continue }
            text += "\(t),0,0,1,0,0,0\n"
        }
        return text
    }

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

    /// A device lying off the body when the profile changes stays off for the new pipeline, so
    /// putting it back on is noticed.
    @Test func aNewProfileKeepsWhetherTheDeviceIsWorn() throws {
        var running = try DetectionPipeline(profile: .walking, sampleRate: 100)
        for i in 0..<9_000 { _ = running.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1))) }
        try #require(!running.isWorn, "90 s lying perfectly still is off the body")
        let next = DetectorLoop.takingOver(try DetectionPipeline(profile: .cycling, sampleRate: 100), from: running)
        #expect(!next.isWorn)
    }

    @Test func aStalledSourceIsAFaultWithinASecondAndRecoversByItself() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let recording = setup.directory.appendingPathComponent("gap.csv")
        try Data(Self.csv(seconds: 7, gap: 2.0...5.0).utf8).write(to: recording)
        try setup.write(replay: recording.path)
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
}
