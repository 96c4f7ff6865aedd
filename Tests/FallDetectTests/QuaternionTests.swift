import Testing

@testable import FallDetect

@Suite struct QuaternionTests {
    @Test func rotatesBodyVectorsIntoEarth() {
        let s = Float(0.5).squareRoot()
        let yaw90 = Quaternion(w: s, x: 0, y: 0, z: s)  // body x points earth y (left)
        let v = yaw90.rotate(SIMD3(1, 0, 0))
        #expect(abs(v.x) < 1e-6 && abs(v.y - 1) < 1e-6)
        #expect(abs(yaw90.angle(to: .identity) - 90) < 1e-4)
        #expect(abs(Quaternion(w: -s, x: 0, y: 0, z: -s).angle(to: yaw90)) < 1e-4)  // q and −q
        #expect(Quaternion.identity.gravity == SIMD3(0, 0, 1))
    }
}
