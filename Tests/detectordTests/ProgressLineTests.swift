import FallDetect
import Testing
@testable import detectord

@Suite struct ProgressLineTests {
    @Test func fixedPointFormatting() {
        #expect(ProgressLine.fixed(1.005, 2) == "1.00" || ProgressLine.fixed(1.005, 2) == "1.01")
        #expect(ProgressLine.fixed(12.34, 1) == "12.3")
        #expect(ProgressLine.fixed(0.05, 2) == "0.05")
        #expect(ProgressLine.fixed(-2.5, 0) == "-3" || ProgressLine.fixed(-2.5, 0) == "-2")
        #expect(ProgressLine.fixed(-0.001, 1) == "0.0")
        #expect(ProgressLine.fixed(.nan, 1) == "-")
    }

    @Test func ratesAreShortened() {
        #expect(ProgressLine.rate(812) == "812")
        #expect(ProgressLine.rate(81_234) == "81.2k")
        #expect(ProgressLine.rate(12_345_678) == "12.3M")
    }

    @Test func liveLineShowsBarShareAndFigures() {
        var stats = ReplayStatistics()
        let samples = [
            IMUSample(timestampNanoseconds: 0, acceleration: SIMD3(0, 0, 1)),
            IMUSample(timestampNanoseconds: 15_000_000_000, acceleration: SIMD3(0, 0, 1.5)),
        ]
        samples.withUnsafeBufferPointer { stats.consume($0) }
        let progress = ReplayProgress(
            title: "walking", isSynthetic: true, statistics: stats, totalSeconds: 60, wallSeconds: 2, isFinished: false)
        let line = ProgressLine.live(progress)
        #expect(line.hasPrefix("[######..................]  25%  walking (synthetic)  15.0/60.0 s  1 samples/s  peak |a| 1.50 g"))
    }

    @Test func hugeValuesAreShownNotTrapped() {
        #expect(ProgressLine.fixed(1e18, 2) == "1e+18")
        #expect(ProgressLine.fixed(-3e20, 1) == "-3e+20")
        #expect(ProgressLine.fixed(999_999_999_999, 0) == "1e+12" || ProgressLine.fixed(999_999_999_999, 0) == "999999999999")
    }
}
