import DeviceLink
import FallDetect
import Foundation
import Synchronization
import Testing
@testable import detectord

/// The demo's receiver side: a recording's fixes at their times. A corrupt recording may stamp a
/// fix anywhere; that must not trap the daemon's fix thread (and with it the daemon).
@Suite struct RecordedFixPlayerTests {
    @Test func fixesStampedAtTheEndsOfTimeAreLeftOutWithoutATrap() async throws {
        let info = RecordingInfo(
            sensor: SensorInfo(sensor: "", device: "", accelerometerRange: 2, gyroscopeRange: 250, sampleRate: 50), title: "corrupt")
        let fixes = [Int64(5_000_000_000), .min, 3_000_000_000, .max, 6_000_000_000].map {
            GNSSFix(timestampNanoseconds: $0, mode: .threeD, status: .gps, latitude: 38.7, longitude: -9.1)
        }
        let recording = Recording(info: info, samples: [IMUSample(timestampNanoseconds: 4_000_000_000, acceleration: .zero)], fixes: fixes)
        let delivered = Mutex<[Int64]>([])
        RecordedFixPlayer(recording: recording, clock: ManualIMUClock(), deliver: { fix in delivered.withLock { $0.append(fix.timestampNanoseconds) } }).start()
        for _ in 0..<200 where delivered.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        // The clock starts at 1 s and the recording at 4 s: each fix keeps its distance from the
        // start; those before the recording or beyond reach are left out.
        #expect(delivered.withLock { $0 } == [2_000_000_000, 3_000_000_000])
    }
}
