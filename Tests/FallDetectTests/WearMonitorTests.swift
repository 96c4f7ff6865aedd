import FallDetect
import Foundation
import Testing

@Suite struct WearMonitorTests {
    /// `seconds` of samples at 50 Hz: gravity along `up`, tilted by `breathing` degrees at 0.25 Hz,
    /// plus white noise of `noise` g on each axis (deterministic).
    static func resting(seconds: Double, from start: Int64 = 0, breathing: Float, noise: Float = 0.002, seed: UInt64 = 1) -> [IMUSample] {
        var state = seed
        func uniform() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24) - 0.5
        }
        return (0..<Int(seconds * 50)).map { i in
            let t = Double(i) / 50
            let angle = breathing * .pi / 180 * Float(sin(2 * .pi * 0.25 * t))
            let a = SIMD3<Float>(sin(angle), 0, cos(angle)) + SIMD3(uniform(), uniform(), uniform()) * noise * 3.46
            return IMUSample(timestampNanoseconds: start + Int64(t * 1e9), acceleration: a, angularRate: .zero)
        }
    }

    static func changes(_ samples: [IMUSample], monitor: inout WearMonitor) -> [WearChange] {
        samples.compactMap { monitor.push($0) }
    }

    @Test func aDeviceOnATableIsOffAfterFortySeconds() throws {
        var monitor = try WearMonitor(sampleRate: 50)
        let found = Self.changes(Self.resting(seconds: 60, breathing: 0), monitor: &monitor)
        let off = try #require(found.first)
        #expect(!off.isWorn && !monitor.isWorn)
        #expect(off.sinceNanoseconds == 0)
        #expect(abs(Double(off.timestampNanoseconds) / 1e9 - 40) < 0.1)
    }

    @Test func breathingKeepsAStillBodyWorn() throws {
        var monitor = try WearMonitor(sampleRate: 50)
        // Half a degree each way: less than any worn window in HAPT (0.44° of spread at least).
        #expect(Self.changes(Self.resting(seconds: 600, breathing: 0.25), monitor: &monitor).isEmpty)
        #expect(monitor.isWorn)
    }

    @Test func pickingItUpMakesItWornAgain() throws {
        var monitor = try WearMonitor(sampleRate: 50)
        var samples = Self.resting(seconds: 60, breathing: 0)
        samples += Self.resting(seconds: 20, from: 60_000_000_000, breathing: 10)
        let found = Self.changes(samples, monitor: &monitor)
        #expect(found.map(\.isWorn) == [false, true])
        #expect(monitor.isWorn)
    }

    @Test func parametersAreChecked() {
        #expect(throws: FallDetectError.self) { try WearMonitor(parameters: WearParameters(offSeconds: 5), sampleRate: 50) }
        #expect(throws: FallDetectError.self) { try WearMonitor(parameters: WearParameters(lowPassHertz: 1), sampleRate: 1.5) }
    }
}
