import CFusion
import Testing
@testable import FallDetect

@Suite struct IMUSampleTests {
    @Test func theHotRecordIs32BytesAndMatchesTheCLayout() {
        #expect(MemoryLayout<IMUSample>.size == 32)
        #expect(MemoryLayout<IMUSample>.stride == MemoryLayout<cfusion_sample>.stride)
        #expect(MemoryLayout<cfusion_sample>.offset(of: \.gz) == 28)
    }

    @Test func accessorsRoundTrip() {
        var s = IMUSample(timestampNanoseconds: 7, acceleration: SIMD3(1, 2, 3), angularRate: SIMD3(4, 5, 6))
        #expect(s.raw.ay == 2 && s.raw.gz == 6)
        s.acceleration = SIMD3(0, 3, 4)
        #expect(s.accelerationMagnitude == 5)
        s.timestampNanoseconds = -1
        #expect(s.timestampNanoseconds == -1)
        #expect(s.angularRate == SIMD3(4, 5, 6))
    }
}
