import FallDetect
import Foundation
import Synchronization
import Testing
@testable import detectord

/// The live recording on a card that fills up: the failure is told when it happens (not only at
/// the end), writing goes on once there is room, and what was lost meanwhile is a gap in the file.
@Suite(.serialized) struct SensorRecorderTests {
    /// `run --record /dev/null`: nothing to sync on a device, and nothing failed.
    @Test func recordingToADeviceIsNoFailure() throws {
        let info = RecordingInfo(
            sensor: SensorInfo(sensor: "test", device: "test", accelerometerRange: 16, gyroscopeRange: 2000, sampleRate: 100), title: "null")
        let told = Mutex<[String]>([])
        let recorder = try SensorRecorder(path: "/dev/null", info: info, failed: { error in told.withLock { $0.append(error.description) } })
        let samples = (1...50).map { IMUSample(timestampNanoseconds: Int64($0) * 10_000_000, acceleration: SIMD3(0, 0, 1)) }
        samples.withUnsafeBufferPointer { recorder.append($0) }
        #expect(try recorder.close().samples == 50)
        #expect(told.withLock { $0 }.isEmpty)
    }

    @Test func aFullDiskIsToldAtOnceAndItsLossIsAGapOnceThereIsRoom() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let disk = try WorkflowServiceTests.smallDisk(in: setup)
        defer { _ = try? WorkflowServiceTests.run("/bin/umount", ["-l", disk]) }
        let info = RecordingInfo(
            sensor: SensorInfo(sensor: "test", device: "test", accelerometerRange: 16, gyroscopeRange: 2000, sampleRate: 100), title: "full disk")
        let told = Mutex<[String]>([])
        let path = disk + "/day.detrec"
        let recorder = try SensorRecorder(path: path, info: info, failed: { error in told.withLock { $0.append(error.description) } })
        var t: Int64 = 0
        func append(_ count: Int) {
            let samples = (0..<count).map { _ in
                t += 10_000_000
                return IMUSample(timestampNanoseconds: t, acceleration: SIMD3(0, 0, 1))
            }
            samples.withUnsafeBufferPointer { recorder.append($0) }
        }
        append(100)
        usleep(700_000)
        let filler = disk + "/filler"
        _ = try WorkflowServiceTests.run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=1M", "count=16", "status=none"])
        append(5000)
        usleep(1_200_000)
        #expect(told.withLock { $0 }.count == 1, "told once, while it happens: \(told.withLock { $0 })")
        try FileManager.default.removeItem(atPath: filler)
        append(100)
        usleep(700_000)
        #expect(throws: FallDetectError.self) { _ = try recorder.close() }
        let read = try RecordingReader().read(path: path)
        let gaps = read.recording.events.filter { $0.kind == .gap && $0.text.hasPrefix("recording failed") }
        #expect(gaps.count == 1 && gaps.first?.value == 5000, "\(read.recording.events)")
        #expect(read.recording.samples.count == 200, "before and after the full disk")
    }
}
