import Testing
@testable import FallDetect

@Suite struct WallClockWatchTests {
    let s: Int64 = 1_000_000_000

    @Test func aClockThatRunsIsNoStep() {
        var watch = WallClockWatch()
        #expect(watch.step(wall: 1_000 * s, monotonic: 5 * s) == nil, "the first reading has nothing to compare")
        #expect(watch.step(wall: 1_001 * s, monotonic: 6 * s) == nil)
        // NTP slewing: tens of milliseconds apart.
        #expect(watch.step(wall: 1_002 * s + 50_000_000, monotonic: 7 * s) == nil)
    }

    @Test func aSetClockIsAStepOfTheDifference() {
        var watch = WallClockWatch()
        _ = watch.step(wall: 1_000 * s, monotonic: 5 * s)
        #expect(watch.step(wall: 4_601 * s, monotonic: 6 * s) == 3_600 * s)
        #expect(watch.step(wall: 1_002 * s, monotonic: 7 * s) == -3_600 * s)
        #expect(watch.step(wall: 1_003 * s, monotonic: 8 * s) == nil, "measured from the last reading")
    }

    @Test func theThresholdIsTheSmallestStep() {
        var watch = WallClockWatch(thresholdSeconds: 2)
        _ = watch.step(wall: 0, monotonic: 0)
        #expect(watch.step(wall: 3 * s, monotonic: 1 * s) == nil, "2 s apart is within the threshold")
        #expect(watch.step(wall: 6 * s + 1, monotonic: 2 * s) == 2 * s + 1)
    }
}
