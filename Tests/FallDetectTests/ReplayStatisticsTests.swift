import Testing
@testable import FallDetect

@Suite struct ReplayStatisticsTests {
    @Test func peakAndDurationAcrossBatches() {
        var stats = ReplayStatistics()
        let a = [IMUSample(timestampNanoseconds: 5, acceleration: SIMD3(0, 3, 4))]
        let b = [
            IMUSample(timestampNanoseconds: 10, acceleration: SIMD3(0, 0, 1)),
            IMUSample(timestampNanoseconds: 2_000_000_005, acceleration: SIMD3(-6, 0, 8)),
        ]
        a.withUnsafeBufferPointer { stats.consume($0) }
        b.withUnsafeBufferPointer { stats.consume($0) }
        #expect(stats.samples == 3)
        #expect(stats.peakAcceleration == 10)
        #expect(stats.peakTimestamp == 2_000_000_005)
        #expect(stats.durationSeconds == 2)
    }

    @Test func mergeKeepsTheLargerPeakAndSumsCounts() {
        var total = ReplayStatistics()
        var one = ReplayStatistics()
        one.samples = 4
        one.peakAcceleration = 2
        var two = ReplayStatistics()
        two.samples = 6
        two.peakAcceleration = 5
        two.fixes = 1
        total.merge(one)
        total.merge(two)
        #expect(total.samples == 10)
        #expect(total.peakAcceleration == 5)
        #expect(total.fixes == 1)
    }
}
