#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit quaternion rotating body-frame vectors into the world frame (x, y horizontal, z up).
/// The generator keeps the wearer's attitude in one so that the gyroscope (the rotation between
/// consecutive attitudes) and the gravity seen by the accelerometer always agree.
struct SyntheticQuaternion {
    var w: Double
    var x: Double
    var y: Double
    var z: Double

    init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    static let identity = SyntheticQuaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about the unit vector `axis`.
    init(axis: SIMD3<Double>, angle: Double) {
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// From (roll about x, pitch about y, yaw about z) in degrees, applied yaw ∘ pitch ∘ roll.
    /// Positive pitch tips the wearer forward (body x towards the ground).
    init(eulerDegrees e: SIMD3<Double>) {
        let r = e * (Double.pi / 180)
        let qx = SyntheticQuaternion(axis: SIMD3(1, 0, 0), angle: r.x)
        let qy = SyntheticQuaternion(axis: SIMD3(0, 1, 0), angle: r.y)
        let qz = SyntheticQuaternion(axis: SIMD3(0, 0, 1), angle: r.z)
        self = qz * qy * qx
    }

    static func * (a: SyntheticQuaternion, b: SyntheticQuaternion) -> SyntheticQuaternion {
        SyntheticQuaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    var conjugate: SyntheticQuaternion { SyntheticQuaternion(w: w, x: -x, y: -y, z: -z) }

    /// Body to world.
    func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let u = SIMD3(x, y, z)
        let t = 2 * cross(u, v)
        return v + w * t + cross(u, t)
    }

    /// World to body.
    func rotateInverse(_ v: SIMD3<Double>) -> SIMD3<Double> {
        conjugate.rotate(v)
    }

    /// The rotation vector (axis × angle, radians) of the shorter way round.
    var rotationVector: SIMD3<Double> {
        var q = self
        if q.w < 0 { q = SyntheticQuaternion(w: -w, x: -x, y: -y, z: -z) }
        let v = SIMD3(q.x, q.y, q.z)
        let s = (v * v).sum().squareRoot()
        guard s > 1e-12 else { return 2 * v }  // small angle: sin(θ/2) ≈ θ/2
        return v * (2 * atan2(s, q.w) / s)
    }

    private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
