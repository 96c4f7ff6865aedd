import Testing

@testable import FallDetect

@Suite struct MotionFrameTests {
    @Test(arguments: [SIMD3<Float>(0, 0, 1), SIMD3(3, 4, 12), SIMD3(-2, 0, 0), SIMD3(0, 0, 0)])
    func magnitudeIsTheNormOfTheAcceleration(_ a: SIMD3<Float>) {
        let f = MotionFrame(
            timestampNanoseconds: 1, samplePeriod: 0.01, acceleration: a, angularRateMagnitude: 0, tiltDegrees: 0,
            verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
        let expected = (Double(a.x) * Double(a.x) + Double(a.y) * Double(a.y) + Double(a.z) * Double(a.z)).squareRoot()
        #expect(abs(Double(f.accelerationMagnitude) - expected) < 1e-6)
    }
}
