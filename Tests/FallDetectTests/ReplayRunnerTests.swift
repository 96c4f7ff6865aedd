import Testing
@testable import FallDetect

@Suite struct ReplayRunnerTests {
    /// 10 s at 100 Hz, upright at rest, with one 3 g spike at 4 s, a fix each second and two events.
    private func recording() -> Recording {
        let samples = (0..<1000).map { i in
            IMUSample(
                timestampNanoseconds: Int64(i) * 10_000_000,
                acceleration: i == 400 ? SIMD3(0, 0, 3) : SIMD3(0, 0, 1))
        }
        let fixes = (0..<10).map { GNSSFix(timestampNanoseconds: Int64($0) * 1_000_000_000, mode: .threeD) }
        let events = [
            RecordedEvent(timestampNanoseconds: 0, kind: .activity, text: "rest"),
            RecordedEvent(timestampNanoseconds: 4_000_000_000, kind: .label, value: 2),
        ]
        let info = RecordingInfo(sensor: .sisFall, title: "rest", isSynthetic: true)
        return Recording(info: info, samples: samples, fixes: fixes, events: events)
    }

    @Test func realTimeReplayTakesAsLongAsTheRecording() async throws {
        let clock = SteppingClock()
        let stats = try await ReplayRunner(speed: .realTime, clock: clock).run(recording())
        #expect(stats.samples == 1000)
        #expect(stats.fixes == 10)
        #expect(stats.events == 2)
        #expect(abs(stats.durationSeconds - 9.99) < 1e-9)
        #expect(stats.peakAcceleration == 3)
        #expect(stats.peakTimestamp == 4_000_000_000)
        #expect(clock.now.offset == .milliseconds(9990))
    }

    @Test func scaledReplayDividesTheTime() async throws {
        let clock = SteppingClock()
        _ = try await ReplayRunner(speed: .scaled(10), clock: clock).run(recording())
        #expect(clock.now.offset == .milliseconds(999))
    }

    @Test func unpacedReplayNeverSleeps() async throws {
        let clock = SteppingClock()
        let stats = try await ReplayRunner(speed: .asFastAsPossible, clock: clock).run(recording())
        #expect(clock.sleepCount == 0)
        #expect(stats.samples == 1000)
    }

    @Test func progressIsThrottledAndEndsFinished() async throws {
        let clock = SteppingClock()
        var reports: [ReplayProgress] = []
        _ = try await ReplayRunner(speed: .realTime, clock: clock, progressInterval: .seconds(1))
            .run(recording()) { reports.append($0) }
        // One report per wall second of a ~10 s replay, plus the final one.
        #expect((9...11).contains(reports.count))
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.fraction == 1)
        #expect(reports.dropLast().allSatisfy { !$0.isFinished && $0.fraction < 1 })
        #expect(reports.last?.isSynthetic == true)
    }

    @Test func emptyRecordingFinishesAtOnce() async throws {
        let empty = Recording(info: RecordingInfo(sensor: .sisFall, title: "empty"))
        var finished = false
        let stats = try await ReplayRunner(speed: .realTime, clock: SteppingClock()).run(empty) { finished = $0.isFinished }
        #expect(stats.samples == 0)
        #expect(finished)
    }

    @Test func cancellationStopsTheReplay() async {
        let task = Task {
            try await ReplayRunner(speed: .realTime, clock: ContinuousClock()).run(recording())
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func timestampsAtTheEndOfInt64DoNotTrap() async throws {
        let samples = [Int64.max - 20_000_000, Int64.max - 10_000_000, Int64.max].map {
            IMUSample(timestampNanoseconds: $0, acceleration: SIMD3(0, 0, 1))
        }
        let recording = Recording(info: RecordingInfo(sensor: .sisFall, title: "edge"), samples: samples)
        let stats = try await ReplayRunner(speed: .asFastAsPossible, clock: SteppingClock()).run(recording)
        #expect(stats.samples == 3)
        let extremes = Recording(info: RecordingInfo(sensor: .sisFall, title: "edge"), samples: [Int64.min, 0, Int64.max].map {
            IMUSample(timestampNanoseconds: $0, acceleration: SIMD3(0, 0, 1))
        })
        #expect(extremes.durationSeconds > 1.8e10)
    }
}
