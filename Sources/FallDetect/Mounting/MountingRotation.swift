#if canImport(Glibc)
import Glibc
#endif

/// A proper rotation (determinant +1) of sensor-frame vectors into the body frame, as a 3 × 3
/// matrix by rows. `MountingEstimator` makes one from the estimated "up"; unlike an
/// `AxisMapping` it may turn by any angle, but it can never mirror the sensor, so a right-handed
/// sensor stays right-handed and angular rates keep their sense of turning.
public struct MountingRotation: Sendable, Equatable {
    /// Row i is body axis i written in sensor coordinates.
    public var rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    public init(rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) { self.rows = rows }

    public static let identity = MountingRotation(rows: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))

    /// The smallest rotation that takes `up` (any non-zero sensor-frame vector) onto body +z.
    /// Heading is left where that puts it: every detector reads only how body z lies (see
    /// docs/detectors.md, "Any mounting"). An `up` opposite +z turns half a turn about sensor x.
    public init(up: SIMD3<Float>) {
        let u = up / (up * up).sum().squareRoot()
        let z = SIMD3<Float>(0, 0, 1)
        // Axis u × z, angle atan2(|u × z|, u · z): stable at every angle, unlike the
        // 1 / (1 + cos) form, which blows up near a half turn.
        let cross = SIMD3(u.y * z.z - u.z * z.y, u.z * z.x - u.x * z.z, u.x * z.y - u.y * z.x)
        let sine = (cross * cross).sum().squareRoot()
        let cosine = u.z
        let axis = sine > 1e-7 ? cross / sine : SIMD3<Float>(1, 0, 0)
        let angle = atan2(sine, cosine)
        self = Self(axis: axis, angle: angle)
    }

    /// Rodrigues: a turn by `angle` radians about the unit `axis`.
    init(axis k: SIMD3<Float>, angle: Float) {
        let c = cos(angle), s = sin(angle), t = 1 - c
        rows = (
            SIMD3(c + t * k.x * k.x, t * k.x * k.y - s * k.z, t * k.x * k.z + s * k.y),
            SIMD3(t * k.y * k.x + s * k.z, c + t * k.y * k.y, t * k.y * k.z - s * k.x),
            SIMD3(t * k.z * k.x - s * k.y, t * k.z * k.y + s * k.x, c + t * k.z * k.z)
        )
    }

    /// Rotates a sensor-frame vector into the body frame.
    @inlinable
    public func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// The inverse rotation (the transpose).
    public var transposed: MountingRotation {
        MountingRotation(rows: (
            SIMD3(rows.0.x, rows.1.x, rows.2.x), SIMD3(rows.0.y, rows.1.y, rows.2.y), SIMD3(rows.0.z, rows.1.z, rows.2.z)))
    }

    /// `self` after `other`: first `other`, then `self`.
    public func composed(after other: MountingRotation) -> MountingRotation {
        let t = other.transposed
        func row(_ r: SIMD3<Float>) -> SIMD3<Float> { SIMD3((r * t.rows.0).sum(), (r * t.rows.1).sum(), (r * t.rows.2).sum()) }
        return MountingRotation(rows: (row(rows.0), row(rows.1), row(rows.2)))
    }

    /// +1 for a rotation; a reflection would give −1.
    public var determinant: Float {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// The same rotation as a unit quaternion (Shepperd's method: the largest of the four
    /// squared components is taken first, so no branch divides by a small number).
    public var quaternion: Quaternion {
        let (r0, r1, r2) = rows
        let trace = r0.x + r1.y + r2.z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            return Quaternion(w: s / 4, x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s)
        } else if r0.x > r1.y, r0.x > r2.z {
            let s = (1 + r0.x - r1.y - r2.z).squareRoot() * 2
            return Quaternion(w: (r2.y - r1.z) / s, x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s)
        } else if r1.y > r2.z {
            let s = (1 + r1.y - r0.x - r2.z).squareRoot() * 2
            return Quaternion(w: (r0.z - r2.x) / s, x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s)
        } else {
            let s = (1 + r2.z - r0.x - r1.y).squareRoot() * 2
            return Quaternion(w: (r1.x - r0.y) / s, x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4)
        }
    }

    public static func == (lhs: MountingRotation, rhs: MountingRotation) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }
}
