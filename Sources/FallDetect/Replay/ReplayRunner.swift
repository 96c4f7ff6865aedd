/// Streams a recording through the pipeline, paced against a clock.
///
/// The pipeline decodes, keeps `ReplayStatistics`, and with a `DetectionPipeline` runs the
/// detectors over samples and fixes in time order, exactly as the daemon feeds them. The clock
/// is injected so tests run paced replays without waiting.
public struct ReplayRunner<C: Clock>: Sendable where C.Duration == Duration {
    public var speed: ReplaySpeed
    public var clock: C
    /// How often progress is reported, in wall time.
    public var progressInterval: Duration

    public init(speed: ReplaySpeed, clock: C, progressInterval: Duration = .milliseconds(100)) {
        self.speed = speed
        self.clock = clock
        self.progressInterval = progressInterval
    }

    /// Replays one recording; `progress` is called at most once per `progressInterval` and once at
    /// the end. Cancelling the task stops the replay with `CancellationError`.
    public func run(
        _ recording: Recording,
        progress: (ReplayProgress) -> Void = { _ in }
    ) async throws -> ReplayStatistics {
        var none: DetectionPipeline?
        return try await run(recording, detecting: &none, progress: progress)
    }

    /// Replays one recording through `pipeline` as well: each sample, and each fix before the
    /// first sample that follows it; `detection` is called as each detection happens and
    /// `followUp` as each stage after a fall detection concludes, `wear` when the device is taken
    /// off or put on again (at their place in paced time).
    public func run(
        _ recording: Recording,
        detecting pipeline: inout DetectionPipeline?,
        detection: (DetectionEvent) -> Void = { _ in },
        followUp: (FollowUpOutcome) -> Void = { _ in },
        wear: (WearChange) -> Void = { _ in },
        progress: (ReplayProgress) -> Void = { _ in }
    ) async throws -> ReplayStatistics {
        let start = clock.now
        var stats = ReplayStatistics()
        var snapshot = ReplayProgress(
            title: recording.info.title, isSynthetic: recording.info.isSynthetic, statistics: stats,
            totalSeconds: recording.durationSeconds, wallSeconds: 0, isFinished: false)
        var lastReport = start
        var nextFix = 0
        var nextEvent = 0
        let samples = recording.samples
        guard let origin = samples.first?.timestampNanoseconds else {
            stats.fixes = recording.fixes.count
            stats.events = recording.events.count
            snapshot.statistics = stats
            snapshot.isFinished = true
            progress(snapshot)
            return stats
        }

        // Paced replays step through 20 ms of data at a time so the live view moves smoothly;
        // unpaced ones take large steps to keep the per-step overhead negligible.
        let stepNanoseconds: Int64 = speed.factor == nil ? 5_000_000_000 : 20_000_000
        var index = 0
        while index < samples.count {
            try Task.checkCancellation()
            // Saturating: a timestamp near Int64.max must not trap.
            let (sum, overflow) = samples[index].timestampNanoseconds.addingReportingOverflow(stepNanoseconds)
            let stepEnd = overflow ? Int64.max : sum
            var end = index + 1
            while end < samples.count, samples[end].timestampNanoseconds < stepEnd { end += 1 }

            let lastTimestamp = samples[end - 1].timestampNanoseconds
            if let factor = speed.factor {
                let due = start.advanced(by: .nanoseconds(Int64(Double(lastTimestamp - origin) / factor)))
                try await clock.sleep(until: due, tolerance: nil)
            }
            samples.withUnsafeBufferPointer { all in
                stats.consume(UnsafeBufferPointer(rebasing: all[index..<end]))
            }
            // Taken out and put back so its buffers stay uniquely owned (no copy per step).
            if var detectors = pipeline.take() {
                for i in index..<end {
                    let t = samples[i].timestampNanoseconds
                    while nextFix < recording.fixes.count, recording.fixes[nextFix].timestampNanoseconds <= t {
                        report(detectors.push(fix: recording.fixes[nextFix]), into: &stats, detection)
                        nextFix += 1
                    }
                    report(detectors.push(samples[i]), into: &stats, detection)
                    for outcome in detectors.takeFollowUps() { followUp(outcome) }
                    for change in detectors.takeWearChanges() { wear(change) }
                }
                pipeline = detectors
            }
            while nextFix < recording.fixes.count, recording.fixes[nextFix].timestampNanoseconds <= lastTimestamp {
                nextFix += 1
            }
            while nextEvent < recording.events.count, recording.events[nextEvent].timestampNanoseconds <= lastTimestamp {
                nextEvent += 1
            }
            stats.fixes = nextFix
            stats.events = nextEvent
            index = end

            let now = clock.now
            if start.duration(to: lastReport) + progressInterval <= start.duration(to: now) {
                lastReport = now
                snapshot.statistics = stats
                snapshot.wallSeconds = Self.seconds(start.duration(to: now))
                progress(snapshot)
            }
        }
        if var detectors = pipeline.take() {
            // Fixes after the last sample can still confirm a crash.
            while nextFix < recording.fixes.count {
                report(detectors.push(fix: recording.fixes[nextFix]), into: &stats, detection)
                nextFix += 1
            }
            pipeline = detectors
        }
        stats.fixes = recording.fixes.count
        stats.events = recording.events.count
        snapshot.statistics = stats
        snapshot.wallSeconds = Self.seconds(start.duration(to: clock.now))
        snapshot.isFinished = true
        progress(snapshot)
        return stats
    }

    private func report(_ events: [DetectionEvent], into stats: inout ReplayStatistics, _ detection: (DetectionEvent) -> Void) {
        for event in events {
            stats.detections += 1
            detection(event)
        }
    }

    private static func seconds(_ d: Duration) -> Double {
        let (s, attoseconds) = d.components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
