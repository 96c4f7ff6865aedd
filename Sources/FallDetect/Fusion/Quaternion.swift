import CFusion

/// A unit quaternion w + xi + yj + zk rotating body-frame vectors into the earth frame
/// (the AHRS's NWU-style frame: x "north" = the initial heading, y west/left, z up).
public struct Quaternion: Sendable, Hashable, CustomStringConvertible {
    public var w: Float
    public var x: Float
    public var y: Float
    public var z: Float

    public init(w: Float, x: Float, y: Float, z: Float) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    init(_ q: cfusion_quat) { self.init(w: q.w, x: q.x, y: q.y, z: q.z) }

    var raw: cfusion_quat { cfusion_quat(w: w, x: x, y: y, z: z) }

    /// Rotates a body vector into the earth frame.
    public func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let r = cfusion_quat_rotate(raw, cfusion_vec3(x: v.x, y: v.y, z: v.z))
        return SIMD3(r.x, r.y, r.z)
    }

    /// "Up" seen from the body: the earth z axis in body coordinates.
    public var gravity: SIMD3<Float> {
        let g = cfusion_quat_gravity(raw)
        return SIMD3(g.x, g.y, g.z)
    }

    /// The angle of the rotation between the two attitudes, degrees (q and −q are equal).
    public func angle(to other: Quaternion) -> Float {
        cfusion_quat_angle_deg(raw, other.raw)
    }

    public var description: String { "(\(w), \(x), \(y), \(z))" }
}
