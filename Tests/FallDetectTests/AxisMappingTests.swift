import Testing
@testable import FallDetect

@Suite struct AxisMappingTests {
    @Test func sisFallGravityReadsUpOnBodyZ() {
        // SisFall's sensor +y points along gravity, so at rest it reads -1 g on y.
        let body = AxisMapping.sisFall.apply(SIMD3(0.1, -1, 0.2))
        #expect(body == SIMD3(0.2, -0.1, 1))
    }

    @Test func textRoundTrips() throws {
        let mapping = try #require(AxisMapping("x=+z,y=-x,z=-y"))
        #expect(mapping == .sisFall)
        #expect(mapping.description == "x=+z,y=-x,z=-y")
        #expect(AxisMapping(AxisMapping.identity.description) == .identity)
    }

    /// Half of the 48 signed permutations are mirror images; a mapping is one exactly when the
    /// body axes it gives are left-handed (x × y = -z for the unit vectors).
    @Test func mirrorImagesAreHalfTheSignedPermutations() {
        var mirrors = 0
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            for signs in 0..<8 {
                let axes = (0..<3).map { AxisMapping.SignedAxis(index: order[$0], sign: signs >> $0 & 1 == 1 ? -1 : 1) }
                let mapping = AxisMapping(x: axes[0], y: axes[1], z: axes[2])
                // Where each sensor axis lands in the body frame: the rows of the inverse.
                func body(_ sensor: SIMD3<Float>) -> SIMD3<Float> { mapping.apply(sensor) }
                let (ex, ey, ez) = (body(SIMD3(1, 0, 0)), body(SIMD3(0, 1, 0)), body(SIMD3(0, 0, 1)))
                let cross = SIMD3(ex.y * ey.z - ex.z * ey.y, ex.z * ey.x - ex.x * ey.z, ex.x * ey.y - ex.y * ey.x)
                #expect(mapping.isMirror == (cross != ez), "\(mapping)")
                if mapping.isMirror { mirrors += 1 }
            }
        }
        #expect(mirrors == 24)
        #expect(!AxisMapping.identity.isMirror && !AxisMapping.sisFall.isMirror)
        #expect(AxisMapping("x=+y,y=+x,z=+z")?.isMirror == true)
    }

    @Test(arguments: ["", "x=+z,y=-x", "x=+z,y=-z,z=-y", "x=*z,y=-x,z=-y", "x=+w,y=-x,z=-y"])
    func malformedOrDegenerateMappingsAreRejected(_ text: String) {
        #expect(AxisMapping(text) == nil)
    }
}
