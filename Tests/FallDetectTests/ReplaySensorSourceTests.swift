import Foundation
import Testing
@testable import FallDetect

/// The replay source of the live daemon: samples reach the ring when their time comes, on the
/// monotonic clock, in the recording's spacing, faster with `speed`, again and again with `loops`.
@Suite(.serialized) struct ReplaySensorSourceTests {
    /// `seconds` of standing still at `rate` Hz as CSV, in a folder of its own.
    static func csv(rate: Double, seconds: Double) throws -> String {
        let dir = try SharedData.temporaryDirectory("replay-source")
        var text = "time,ax,ay,az,gx,gy,gz\n"
        for i in 0..<Int(rate * seconds) { text += "\(Double(i) / rate),0,0,1,0,0,0\n" }
        let path = dir + "/still.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `source` into a fresh ring; returns what it pushed and how long it took.
    static func drain(
        _ source: ReplaySensorSource, stopAfter limit: Int = .max, until done: () -> Bool = { false }
    ) throws -> (samples: [IMUSample], seconds: Double, end: SensorSourceEnd) {
        let ring = SampleRing(capacity: 1 << 14)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        let start = MonotonicTime.nowNanoseconds()
        let end = try source.run(into: producer, batchWritten: {}, shouldStop: { ring.count >= limit || done() })
        let seconds = Double(MonotonicTime.nowNanoseconds() - start) / 1e9
        var samples: [IMUSample] = []
        while let sample = consumer.pop() { samples.append(sample) }
        return (samples, seconds, end)
    }

    @Test func samplesArriveInRealTimeOnTheMonotonicClock() throws {
        let path = try Self.csv(rate: 100, seconds: 0.5)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let before = MonotonicTime.nowNanoseconds()
        let (samples, seconds, end) = try Self.drain(ReplaySensorSource(paths: [path]))
        #expect(end == .exhausted)
        #expect(samples.count == 50)
        #expect(seconds >= 0.48, "paced in real time: \(seconds) s for 0.49 s of data")
        let first = try #require(samples.first?.timestampNanoseconds)
        #expect(first >= before && first - before < 50_000_000, "stamped on the monotonic clock at the start")
        let steps = Set(zip(samples.dropFirst(), samples).map { ($0.timestampNanoseconds - $1.timestampNanoseconds + 500_000) / 1_000_000 })
        #expect(steps == [10], "the recording's 10 ms spacing: \(steps)")
    }

    @Test func speedShortensTheWaitNotTheSpacing() throws {
        let path = try Self.csv(rate: 100, seconds: 1)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (samples, seconds, _) = try Self.drain(ReplaySensorSource(paths: [path], speed: 10))
        #expect(samples.count == 100)
        #expect(seconds < 0.5, "10x: \(seconds) s for 0.99 s of data")
        #expect(samples[99].timestampNanoseconds - samples[0].timestampNanoseconds == 990_000_000)
    }

    @Test func aLoopingReplayGoesOnWithTimeStillIncreasing() throws {
        let path = try Self.csv(rate: 100, seconds: 0.2)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (samples, _, end) = try Self.drain(ReplaySensorSource(paths: [path], speed: 20, loops: true), stopAfter: 60)
        #expect(end == .stopped)
        #expect(samples.count >= 60, "three rounds of 20")
        #expect(zip(samples.dropFirst(), samples).allSatisfy { $0.timestampNanoseconds > $1.timestampNanoseconds })
    }

    /// At 1000x a 10 ms step is 10 s of samples, more than a small ring holds: the replay waits
    /// for the detector instead of dropping what the recording has (a chip would drop; a
    /// recording is there to be judged whole).
    @Test func aReplayFasterThanTheRingHoldsLosesNothing() throws {
        let path = try Self.csv(rate: 100, seconds: 30)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let ring = SampleRing(capacity: 256)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        var samples: [IMUSample] = []
        let end = try ReplaySensorSource(paths: [path], speed: 1000).run(into: producer, batchWritten: {
            while let sample = consumer.pop() { samples.append(sample) }
        }, shouldStop: { false })
        #expect(end == .exhausted)
        #expect(samples.count == 3000 && ring.droppedCount == 0, "\(samples.count) judged, \(ring.droppedCount) dropped")
    }

    /// A looped recording of a single sample comes round once per sample period, not as fast
    /// as the ring takes it.
    @Test func aLoopedOneSampleRecordingKeepsItsRate() throws {
        let path = try Self.csv(rate: 100, seconds: 0.01)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let start = MonotonicTime.nowNanoseconds()
        let (samples, _, _) = try Self.drain(ReplaySensorSource(paths: [path], loops: true)) { MonotonicTime.nowNanoseconds() - start > 300_000_000 }
        #expect((20...40).contains(samples.count), "\(samples.count) samples in 0.3 s at 100 Hz")
    }

    /// A corrupt recording's times may span more than Int64 holds: moved onto the run's clock they
    /// saturate instead of trapping the sensor thread.
    @Test func extremeTimesSaturateWhenMoved() {
        #expect(ReplaySensorSource.moved(.max, from: -1, to: 0) == .max)
        #expect(ReplaySensorSource.moved(.min, from: 1, to: 0) == .min)
        #expect(ReplaySensorSource.moved(.max, from: 0, to: 10) == .max)
        #expect(ReplaySensorSource.moved(5_000, from: 1_000, to: 100) == 4_100)
    }

    /// The detector and a recording made from the replay take the ranges the recording declares,
    /// not a default: a ±500 °/s recording saturates at 500.
    @Test func theRecordingsRangesAreTheSources() throws {
        let dir = try SharedData.temporaryDirectory("replay-ranges")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var recording = RecordingFixtures.fullRecording()
        recording.info.sensor.accelerometerRange = 8
        recording.info.sensor.gyroscopeRange = 500
        let path = dir + "/ranges.detrec"
        try RecordingWriter.write(recording, to: path)
        let source = try ReplaySensorSource(paths: [path])
        #expect(source.accelerometerRange == 8)
        #expect(source.gyroscopeRange == 500)
        // A CSV says nothing of its ranges: unknown, which the detector reads as 16 g and 2000 °/s.
        let csv = try Self.csv(rate: 100, seconds: 0.1)
        defer { try? FileManager.default.removeItem(atPath: (csv as NSString).deletingLastPathComponent) }
        #expect(try ReplaySensorSource(paths: [csv]).gyroscopeRange.isNaN)
    }

    @Test func ratesNoIMURunsAtAndMissingFilesAreRefused() throws {
        let slow = try Self.csv(rate: 5, seconds: 2)
        defer { try? FileManager.default.removeItem(atPath: (slow as NSString).deletingLastPathComponent) }
        let error = #expect(throws: FallDetectError.self) { try ReplaySensorSource(paths: [slow]) }
        #expect(error?.message.contains("10 to 10000 Hz") == true, "\(String(describing: error))")
        let missing = #expect(throws: FallDetectError.self) { try ReplaySensorSource(paths: ["/nonexistent/walk.detrec"]) }
        #expect(missing?.path == "/nonexistent/walk.detrec")
        #expect(throws: FallDetectError.self) { try ReplaySensorSource(paths: [slow], speed: 0) }
    }
}
