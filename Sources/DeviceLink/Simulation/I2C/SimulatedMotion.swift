import FallDetect

/// What a simulated chip measures, in g and °/s, as a function of time since it started.
public protocol SimulatedMotion: Sendable {
    func reading(atSeconds seconds: Double) -> IMUReading
}

/// A device lying still: gravity on +z (or another axis) and no rotation.
public struct RestingMotion: SimulatedMotion {
    public var gravity: SIMD3<Float>

    public init(gravity: SIMD3<Float> = SIMD3(0, 0, 1)) { self.gravity = gravity }

    public func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: gravity) }
}

/// A recording played as motion (a SisFall trial, a demo ride): the sample in force at each
/// time, held at the end or looped.
public struct RecordedMotion: SimulatedMotion {
    public let samples: [IMUSample]
    public let loops: Bool
    private let origin: Int64
    private let span: Int64

    public init(recording: Recording, loops: Bool = false) {
        samples = recording.samples
        self.loops = loops
        origin = samples.first?.timestampNanoseconds ?? 0
        span = max(1, (samples.last?.timestampNanoseconds ?? 0) - origin + recording.info.sensor.samplePeriodNanoseconds)
    }

    /// Seconds of motion before it holds or loops.
    public var durationSeconds: Double { Double(span) / 1e9 }

    public func reading(atSeconds seconds: Double) -> IMUReading {
        guard !samples.isEmpty else { return IMUReading(acceleration: SIMD3(0, 0, 1)) }
        var offset = Int64(seconds * 1e9)
        if loops { offset %= span }
        let target = origin + offset
        // Binary search for the last sample at or before the target.
        var low = 0
        var high = samples.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if samples[middle].timestampNanoseconds <= target { low = middle } else { high = middle - 1 }
        }
        return IMUReading(acceleration: samples[low].acceleration, angularRate: samples[low].angularRate)
    }
}
