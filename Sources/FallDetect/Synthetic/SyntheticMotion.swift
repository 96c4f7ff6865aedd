/// The simulation under the synthetic generator: it turns a scripted trunk motion (attitude as
/// roll/pitch/yaw, plus linear acceleration in the world frame) into body-frame IMU samples at
/// 100 Hz, and collects the recording's events.
///
/// The gyroscope reading of each sample is exactly the rotation from that sample's attitude to the
/// next one, and the accelerometer reading is the specific force (linear acceleration plus the
/// reaction to gravity) rotated into that attitude. So integrating the gyro reproduces the tilt
/// the accelerometer shows, as on a real body, up to the modelled sensor noise and bias.
struct SyntheticMotion {
    /// Attitude (roll, pitch, yaw in degrees; see `SyntheticQuaternion(eulerDegrees:)`) and linear
    /// acceleration in g in the world frame (x, y horizontal, z up), gravity excluded.
    typealias Pose = (attitude: SIMD3<Double>, acceleration: SIMD3<Double>)

    static let sampleRate = 100.0
    static let period = 1 / sampleRate
    static let periodNanoseconds: Int64 = 10_000_000

    var rng: SplitMix64
    private(set) var samples: [IMUSample] = []
    private(set) var events: [RecordedEvent] = []
    /// The attitude at the next sample; each segment starts from here.
    private(set) var attitude: SIMD3<Double>

    /// White noise per axis: accelerometer in g, gyroscope in °/s (MEMS-typical at 100 Hz).
    let accelerometerNoise = 0.01
    let gyroscopeNoise = 0.08
    /// Small residual biases, drawn once per recording, as left after a factory calibration.
    let accelerometerBias: SIMD3<Double>
    let gyroscopeBias: SIMD3<Double>
    /// Full scales: readings beyond them saturate, as on the part.
    let accelerometerRange: Double
    let gyroscopeRange: Double

    init(seed: UInt64, attitude: SIMD3<Double>, sensor: SensorInfo) {
        var rng = SplitMix64(seed: seed)
        accelerometerBias = SIMD3(rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01))
        gyroscopeBias = SIMD3(rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01))
        self.rng = rng
        self.attitude = attitude
        accelerometerRange = Double(sensor.accelerometerRange)
        gyroscopeRange = Double(sensor.gyroscopeRange)
    }

    /// Seconds since the first sample, at the next sample.
    var time: Double { Double(samples.count) * Self.period }

    var timestampNanoseconds: Int64 { Int64(samples.count) * Self.periodNanoseconds }

    /// Records an event `offset` seconds after the next sample's time.
    mutating func event(_ kind: RecordedEvent.Kind, value: Int32 = 0, text: String, offset: Double = 0) {
        let at = timestampNanoseconds + Int64((offset * 1e9).rounded())
        events.append(RecordedEvent(timestampNanoseconds: at, kind: kind, value: value, text: text))
    }

    /// A ground-truth label with SisFall's codes: 0 background, 1 alert (pre-fall), 2 fall.
    mutating func label(_ code: Int32, offset: Double = 0) {
        let names = ["background", "alert", "fall"]
        let name = names.indices.contains(Int(code)) ? names[Int(code)] : "label \(code)"
        event(.label, value: code, text: name, offset: offset)
    }

    mutating func activity(_ name: String, offset: Double = 0) {
        event(.activity, text: name, offset: offset)
    }

    /// Emits `seconds` of samples. `pose` is called once per step, in order, for t = 0, Δt, …,
    /// seconds (so it may keep filter state and draw noise from the generator it is handed); the
    /// attitude it gives for t = 0 is replaced by the current one, so segments join without jumps.
    mutating func run(_ seconds: Double, _ pose: (Double, inout SplitMix64) -> Pose) {
        let count = Int((seconds * Self.sampleRate).rounded())
        guard count > 0 else { return }
        var current = pose(0, &rng)
        current.attitude = attitude
        var q = SyntheticQuaternion(eulerDegrees: current.attitude)
        let up = SIMD3<Double>(0, 0, 1)
        samples.reserveCapacity(samples.count + count)
        for i in 0..<count {
            let next = pose(Double(i + 1) * Self.period, &rng)
            let qNext = SyntheticQuaternion(eulerDegrees: next.attitude)
            // Body-frame rate that carries q to qNext in one period: q ⊗ Δq = qNext.
            let rate = (q.conjugate * qNext).rotationVector * (180 / Double.pi / Self.period)
            let force = q.rotateInverse(current.acceleration + up)
            let a = force + accelerometerBias + accelerometerNoise * rng.gaussian3()
            let g = rate + gyroscopeBias + gyroscopeNoise * rng.gaussian3()
            samples.append(IMUSample(
                timestampNanoseconds: timestampNanoseconds,
                acceleration: SIMD3<Float>(clamp(a, accelerometerRange)),
                angularRate: SIMD3<Float>(clamp(g, gyroscopeRange))))
            q = qNext
            current = next
        }
        attitude = current.attitude
    }

    /// Holds the current attitude: nothing moves but the chest with breathing (about 15 breaths
    /// a minute, a fraction of a degree) and the sensor's noise.
    mutating func still(_ seconds: Double) {
        let base = attitude
        run(seconds) { t, _ in
            let breath = SyntheticCurve.wave(0.25, t)
            return (base + SIMD3(0, 0.3 * breath, 0), SIMD3(0, 0, 0.004 * breath))
        }
    }

    private func clamp(_ v: SIMD3<Double>, _ range: Double) -> SIMD3<Double> {
        v.clamped(lowerBound: SIMD3(repeating: -range), upperBound: SIMD3(repeating: range))
    }
}
