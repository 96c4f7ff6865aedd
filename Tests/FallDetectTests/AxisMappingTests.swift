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

    @Test(arguments: ["", "x=+z,y=-x", "x=+z,y=-z,z=-y", "x=*z,y=-x,z=-y", "x=+w,y=-x,z=-y"])
    func malformedOrDegenerateMappingsAreRejected(_ text: String) {
        #expect(AxisMapping(text) == nil)
    }
}
