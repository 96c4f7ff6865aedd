import Foundation
@testable import FallDetect

/// Recordings and files shared by the recording-format and synthetic-generator tests.
enum RecordingFixtures {
    /// A header with every field away from its default, and non-ASCII text.
    static let info = RecordingInfo(
        sensor: SensorInfo(
            sensor: "MPU-6050 · ±16 g", device: "raspberrypi-4b «Gürtel»", accelerometerRange: 16,
            gyroscopeRange: 2000, sampleRate: 104.5, axisMapping: .sisFall, hasMagnetometer: true),
        startUTCNanoseconds: 1_763_790_000_123_456_789, title: "Sturz im Flur 🚑 — essai n°3",
        isSynthetic: false)

    /// Every stream, every optional both present and absent, odd values (negative zero, NaN-free
    /// extremes, unknown event kind, empty and non-ASCII texts).
    static func fullRecording(samples sampleCount: Int = 300) -> Recording {
        var samples: [IMUSample] = []
        for i in 0..<sampleCount {
            let time: Int64 = Int64(i) * 9_569_378 - 5
            let f = Float(i)
            let z: Float = i == 7 ? -0.0 : 0.98
            let acceleration = SIMD3<Float>(f * 0.001, -1.5, z)
            let rate = SIMD3<Float>(f, -f / 3, Float.greatestFiniteMagnitude)
            samples.append(IMUSample(timestampNanoseconds: time, acceleration: acceleration, angularRate: rate))
        }
        let magnetometer = (0..<10).map { (i: Int) -> MagnetometerSample in
            let field = SIMD3<Float>(21.5, -3.25, Float(-40 - i))
            return MagnetometerSample(timestampNanoseconds: Int64(i) * 50_000_000, field: field)
        }
        let fixes = [
            GNSSFix(
                timestampNanoseconds: 350_000_000, utcNanoseconds: 1_763_790_000_000_000_000, mode: .threeD,
                latitude: 47.376_912_345, longitude: -122.419_4, altitude: -12.5, speed: 6.25, track: 359.9,
                horizontalAccuracy: 2.5, verticalAccuracy: 4.75, satellitesUsed: 11),
            GNSSFix(timestampNanoseconds: 1_350_000_000, mode: .none, status: .simulated),
            GNSSFix(
                timestampNanoseconds: 2_350_000_000, mode: .twoD, latitude: 0, longitude: 0, speed: 0,
                satellitesUsed: 0),
        ]
        let events = [
            RecordedEvent(timestampNanoseconds: 0, kind: .label, value: 0, text: "background"),
            RecordedEvent(timestampNanoseconds: 10, kind: .activity, value: 0, text: "Radfahren 🚲 über Kopfsteinpflaster"),
            RecordedEvent(timestampNanoseconds: 20, kind: .button, value: -3, text: ""),
            RecordedEvent(timestampNanoseconds: 30, kind: RecordedEvent.Kind(rawValue: 200), value: Int32.min, text: "日本語のメモ"),
        ]
        return Recording(info: info, samples: samples, magnetometer: magnetometer, fixes: fixes, events: events)
    }

    /// A small recording that the writer splits into many blocks of every type.
    static func smallMultiBlock() throws -> (recording: Recording, bytes: [UInt8]) {
        var recording = fullRecording(samples: 40)
        recording.info.title = "small"
        let options = RecordingWriter.Options(
            imuSamplesPerBlock: 8, magnetometerSamplesPerBlock: 4, fixesPerBlock: 2, eventsPerBlock: 2)
        return (recording, try RecordingWriter.encode(recording, options: options))
    }

    /// Byte ranges of the blocks of an intact encoding, in file order.
    static func blockRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        var ranges: [Range<Int>] = []
        var offset = u32(12)
        while offset < bytes.count {
            let end = offset + 28 + u32(offset + 12)
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// A fresh empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("detrec-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func contents(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Deterministic bytes for fuzzing (SplitMix64, like the generator; no system randomness).
    struct Bytes {
        private var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }
}

extension Recording {
    /// Field-by-field equality for tests (`Recording` itself is not Equatable).
    func sameContent(as other: Recording) -> Bool {
        info == other.info && samples == other.samples && magnetometer == other.magnetometer
            && fixes == other.fixes && events == other.events
    }
}
