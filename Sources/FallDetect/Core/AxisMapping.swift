/// How a sensor's axes map onto the body frame, which detectors use throughout.
///
/// Body frame: +x forward, +y to the wearer's left, +z up, right-handed. An upright wearer at rest
/// reads about +1 g on z (an accelerometer measures the reaction to gravity). Each body axis takes
/// one sensor axis with a sign; written as text it reads `x=+z,y=-x,z=-y`.
public struct AxisMapping: Sendable, Hashable, CustomStringConvertible {
    /// One of the sensor's axes with a sign.
    public struct SignedAxis: Sendable, Hashable {
        /// 0 = sensor x, 1 = sensor y, 2 = sensor z.
        public var index: Int
        /// +1 or -1.
        public var sign: Float

        public init(index: Int, sign: Float) {
            self.index = index
            self.sign = sign
        }
    }

    public var x: SignedAxis
    public var y: SignedAxis
    public var z: SignedAxis

    public init(x: SignedAxis, y: SignedAxis, z: SignedAxis) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Sensor axes are already the body frame.
    public static let identity = AxisMapping(
        x: .init(index: 0, sign: 1), y: .init(index: 1, sign: 1), z: .init(index: 2, sign: 1))

    /// SisFall's belt device (paper §3.3): sensor +z forward, +y along gravity (down), +x to the right.
    public static let sisFall = AxisMapping(
        x: .init(index: 2, sign: 1), y: .init(index: 0, sign: -1), z: .init(index: 1, sign: -1))

    /// Rotates a sensor-frame vector into the body frame.
    @inlinable
    public func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(x.sign * v[x.index], y.sign * v[y.index], z.sign * v[z.index])
    }

    /// True when the three body axes take three different sensor axes.
    public var isPermutation: Bool {
        Set([x.index, y.index, z.index]) == [0, 1, 2]
    }

    /// True for a mirror image (determinant -1), which no mounting gives: a chip's axes and the
    /// body frame are both right-handed. Applied to a gyroscope it turns rotations the wrong way
    /// against the accelerometer, so one of its signs is wrong.
    public var isMirror: Bool {
        func row(_ a: SignedAxis) -> SIMD3<Float> {
            var r = SIMD3<Float>(repeating: 0)
            r[a.index] = a.sign
            return r
        }
        let (r0, r1, r2) = (row(x), row(y), row(z))
        let cross = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
        return (r0 * cross).sum() < 0
    }

    public var description: String {
        func text(_ a: SignedAxis) -> String { (a.sign < 0 ? "-" : "+") + ["x", "y", "z"][a.index] }
        return "x=\(text(x)),y=\(text(y)),z=\(text(z))"
    }

    /// Parses `x=+z,y=-x,z=-y` (the form `description` writes).
    public init?(_ text: String) {
        var axes: [Character: SignedAxis] = [:]
        for part in text.split(separator: ",") {
            let chars = Array(part.filter { !$0.isWhitespace })
            guard chars.count == 4, chars[1] == "=", "xyz".contains(chars[0]),
                chars[2] == "+" || chars[2] == "-",
                let index = "xyz".firstIndex(of: chars[3]).map({ "xyz".distance(from: "xyz".startIndex, to: $0) })
            else { return nil }
            axes[chars[0]] = SignedAxis(index: index, sign: chars[2] == "-" ? -1 : 1)
        }
        guard let x = axes["x"], let y = axes["y"], let z = axes["z"] else { return nil }
        self.init(x: x, y: y, z: z)
        guard isPermutation else { return nil }
    }
}
