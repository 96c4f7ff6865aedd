import CFusion
import Foundation
import Testing

@testable import FallDetect

@Suite struct AHRSTests {
    /// imufusion's settings in Tests/oracle/ahrs_oracle.py.
    static let oracleSettings = AHRSSettings(
        sampleRate: 200, gain: 0.5, gyroscopeRange: 2000, accelerationRejection: 10, rejectionTimeout: 5)

    struct Agreement {
        var maxAngle: Float = 0
        var maxEarth: Float = 0
        var flagMismatches = 0
        var rows = 0
        var ignored = 0
    }

    /// Feeds the oracle's float32 input to our filter; compares with imufusion after every update.
    static func compare(_ folder: String, _ name: String, usePeriod: Bool) throws -> Agreement {
        let input = try Oracle.read("\(folder)/\(name)_input.f32", as: Float.self)
        let quats = try Oracle.read("\(folder)/\(name)_quat.f64", as: Double.self)
        let earth = try Oracle.read("\(folder)/\(name)_earth.f64", as: Double.self)
        let flags = try Oracle.read("\(folder)/\(name)_flags.u8", as: UInt8.self)
        var ahrs = AHRS(settings: oracleSettings)
        var result = Agreement()
        result.rows = input.count / 7
        for i in 0..<result.rows {
            let r = i * 7
            if usePeriod { ahrs.samplePeriod = input[r] }
            ahrs.update(
                angularRate: SIMD3(input[r + 1], input[r + 2], input[r + 3]),
                acceleration: SIMD3(input[r + 4], input[r + 5], input[r + 6]))
            let out = ahrs.output
            let reference = Quaternion(
                w: Float(quats[i * 4]), x: Float(quats[i * 4 + 1]), y: Float(quats[i * 4 + 2]), z: Float(quats[i * 4 + 3]))
            result.maxAngle = max(result.maxAngle, out.quaternion.angle(to: reference))
            for k in 0..<3 {
                result.maxEarth = max(result.maxEarth, abs(out.earthAcceleration[k] - Float(earth[i * 3 + k])))
            }
            let f = flags[(i * 4)..<(i * 4 + 4)].map { $0 != 0 }
            let expected =
                (f[0] ? AHRSFlags.startup : []).union(f[1] ? .overrangeRecovery : [])
                .union(f[2] ? .accelerationRecovery : []).union(f[3] ? .accelerometerIgnored : [])
            if out.flags != expected { result.flagMismatches += 1 }
            if out.flags.contains(.accelerometerIgnored) { result.ignored += 1 }
        }
        return result
    }

    @Test func agreesWithImufusionOnSisFall() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        guard let folder = try Oracle.run("ahrs_oracle.py", ["--sisfall", "\(root)/SisFall_dataset"]) else { return }
        defer { Oracle.remove(folder) }
        let a = try Self.compare(folder, "sisfall", usePeriod: false)
        #expect(a.rows == 100_000)
        #expect(a.maxAngle < 0.05, "quaternion differs from imufusion by \(a.maxAngle)°")
        #expect(a.maxEarth < 1e-3)
        #expect(a.flagMismatches == 0)
        #expect(a.ignored > 1000, "the run should exercise acceleration rejection (falls)")
    }

    @Test func agreesWithImufusionOnSyntheticRunWithJitteredPeriods() throws {
        guard let folder = try Oracle.run("ahrs_oracle.py") else { return }
        defer { Oracle.remove(folder) }
        let a = try Self.compare(folder, "synthetic", usePeriod: true)
        #expect(a.rows == 100_000)
        #expect(a.maxAngle < 0.05, "quaternion differs from imufusion by \(a.maxAngle)°")
        #expect(a.maxEarth < 1e-3)
        #expect(a.flagMismatches == 0)
    }

    /// Fusion's documented oracle: 500 still samples of (0, 0.5, 0.866) g give roll 30°.
    @Test func staticTiltMatchesKnownAttitude() {
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 100))
        for _ in 0..<500 {
            ahrs.update(angularRate: .zero, acceleration: SIMD3(0, 0.5, 0.866))
        }
        let out = ahrs.output
        let expected = Quaternion(w: cos(Float.pi / 12), x: sin(Float.pi / 12), y: 0, z: 0)
        #expect(out.quaternion.angle(to: expected) < 0.05)
        #expect(abs(out.tiltDegrees - 30) < 0.05)
        #expect(abs(out.earthAcceleration.z) < 1e-3)
        #expect(abs(out.linearAcceleration.y) < 1e-3)
        #expect(!out.flags.contains(.startup))
    }

    /// Rotations with known ground truth: the filter starts at identity while the wearer is
    /// tilted, then follows continuous rotation; after start-up the estimated gravity direction
    /// (tilt, the observable part without a magnetometer) stays within 1° of the truth.
    @Test func convergesToTrueAttitude() {
        let rate: Double = 200
        var truth = SyntheticQuaternion(eulerDegrees: SIMD3(25, -40, 70))
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: Float(rate)))
        var random = SystemRandomNumberGenerator()
        var worstAfterStartup: Double = 0
        for i in 0..<(30 * Int(rate)) {
            let t = Double(i) / rate
            // Body rates, rad/s: slow wobbles like a wearer bending and turning.
            let omega = SIMD3(0.6 * sin(1.3 * t), 0.5 * sin(0.7 * t + 1), 0.8 * cos(0.4 * t))
            let angle = (omega * omega).sum().squareRoot() / rate
            if angle > 0 {
                truth = truth * SyntheticQuaternion(axis: omega / (omega * omega).sum().squareRoot(), angle: angle)
            }
            let up = truth.rotateInverse(SIMD3(0, 0, 1))
            let noise = SIMD3<Double>(
                Double.random(in: -0.01...0.01, using: &random), Double.random(in: -0.01...0.01, using: &random),
                Double.random(in: -0.01...0.01, using: &random))
            let gyro = omega * (180 / Double.pi)
            ahrs.update(
                angularRate: SIMD3<Float>(Float(gyro.x), Float(gyro.y), Float(gyro.z)),
                acceleration: SIMD3<Float>(Float(up.x + noise.x), Float(up.y + noise.y), Float(up.z + noise.z)))
            if t > 3.5 {
                let g = ahrs.output.gravity
                let cosine = (Double(g.x) * up.x + Double(g.y) * up.y + Double(g.z) * up.z)
                worstAfterStartup = max(worstAfterStartup, acos(min(1, cosine)) * 180 / Double.pi)
            }
        }
        #expect(worstAfterStartup < 1.0, "tilt error \(worstAfterStartup)° after start-up")
    }

    @Test func impactIsRejectedAndFlagged() {
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 100))
        for _ in 0..<400 { ahrs.update(angularRate: .zero, acceleration: SIMD3(0, 0, 1)) }
        #expect(ahrs.flags.isEmpty)
        let before = ahrs.quaternion
        ahrs.update(angularRate: .zero, acceleration: SIMD3(6, -3, 2))
        #expect(ahrs.flags.contains(.accelerometerIgnored))
        #expect(ahrs.quaternion.angle(to: before) < 1e-4, "a rejected impact must not move the attitude")
        #expect(ahrs.output.accelerationErrorDegrees > 10)
    }

    @Test func zeroAccelerationMeansNoReading() {
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 100))
        ahrs.skipStartup()
        ahrs.update(angularRate: SIMD3(0, 0, 90), acceleration: .zero)
        #expect(ahrs.flags.contains(.accelerometerIgnored))
        // 90 °/s for 10 ms about z: 0.9° of heading.
        #expect(abs(ahrs.quaternion.angle(to: .identity) - 0.9) < 1e-3)
    }

    @Test func gyroscopeOverrangeRestartsStartup() {
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 100, gyroscopeRange: 500))
        for _ in 0..<400 { ahrs.update(angularRate: .zero, acceleration: SIMD3(0, 0, 1)) }
        ahrs.update(angularRate: SIMD3(495, 0, 0), acceleration: SIMD3(0, 0, 1))
        #expect(ahrs.flags.contains(.overrangeRecovery))
        #expect(ahrs.flags.contains(.startup))
        for _ in 0..<301 { ahrs.update(angularRate: .zero, acceleration: SIMD3(0, 0, 1)) }
        #expect(!ahrs.flags.contains(.overrangeRecovery))
    }

    @Test func sustainedAccelerationEntersRecovery() {
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 100, rejectionTimeout: 1))
        for _ in 0..<400 { ahrs.update(angularRate: .zero, acceleration: SIMD3(0, 0, 1)) }
        var sawRecovery = false
        for _ in 0..<300 {
            ahrs.update(angularRate: .zero, acceleration: SIMD3(0.7, 0, 1))  // 35° off: rejected
            sawRecovery = sawRecovery || ahrs.flags.contains(.accelerationRecovery)
        }
        #expect(sawRecovery)
    }

    @Test func timestampedBatchEqualsSingleUpdates() {
        var samples: [IMUSample] = []
        for i in 0..<1000 {
            let t = Float(i) / 100
            samples.append(
                IMUSample(
                    timestampNanoseconds: Int64(i) * 10_000_000 + (i % 3 == 0 ? 700_000 : 0),
                    acceleration: SIMD3(0.1 * sin(t), 0.05, 0.99), angularRate: SIMD3(5 * sin(t), 3, -2)))
        }
        var batch = AHRS(settings: AHRSSettings(sampleRate: 100))
        samples.withUnsafeBufferPointer { batch.update($0, useTimestamps: true) }
        var single = AHRS(settings: AHRSSettings(sampleRate: 100))
        for (i, s) in samples.enumerated() {
            single.samplePeriod =
                i == 0 ? 0.01 : Float(s.timestampNanoseconds - samples[i - 1].timestampNanoseconds) * 1e-9
            single.update(s)
        }
        #expect(batch.quaternion == single.quaternion)
        #expect(batch.samplePeriod == 0.01)
    }
}
