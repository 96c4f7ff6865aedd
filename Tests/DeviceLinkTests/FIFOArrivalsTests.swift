import Testing
@testable import DeviceLink

@Suite struct FIFOArrivalsTests {
    /// Samples a chip at `rateHz`, first writing at `phase` seconds, writes in (start, end].
    static func written(rateHz: Double, phase: Double, from start: Double, to end: Double) -> Int {
        Int(((end - phase) * rateHz).rounded(.down)) - Int(((start - phase) * rateHz).rounded(.down))
    }

    /// Whatever the chip's phase and its real rate within the bounds' assumption, what it wrote
    /// over a stretch lies between the sure count and the most, plus the one that may land at
    /// once (the drivers' margin).
    @Test(arguments: [25.0, 200.0, 1000.0, 1666.0])
    func whatAChipWritesLiesBetweenTheBounds(nominalHz: Double) {
        let arrivals = FIFOArrivals(rateHz: nominalHz)
        for factor in stride(from: 0.9, through: 1.25, by: 0.05) {
            for phase in stride(from: 0.0, to: 1 / (nominalHz * factor), by: 1 / (nominalHz * factor) / 7) {
                for milliseconds in [0, 1, 3, 17, 80, 333, 1200] {
                    let start: Int64 = 5_000_000_000
                    let end = start + Int64(milliseconds) * 1_000_000
                    let count = Self.written(rateHz: nominalHz * factor, phase: phase, from: Double(start) / 1e9, to: Double(end) / 1e9)
                    let bounds = (surely: arrivals.surely(from: start, to: end), most: arrivals.most(from: start, to: end))
                    #expect(bounds.surely <= Double(count) && Double(count) <= bounds.most + 1,
                            "\(count) samples at \(factor) × \(nominalHz) Hz in \(milliseconds) ms, phase \(phase): \(bounds)")
                }
            }
        }
    }

    /// The sure count must grow with time, or a drain held up long enough to lose samples would
    /// never show them missing.
    @Test func theSureCountGrowsWithTheStretch() {
        let arrivals = FIFOArrivals(rateHz: 200)
        #expect(arrivals.surely(from: 0, to: 0) == 0)
        // From 10 ms on (past the one sample the phase may cost), every 10 ms more is surely 1.8
        // samples more: a drain held up 5 s is sure to have met 899, more than any FIFO holds.
        let stretches = stride(from: Int64(10_000_000), through: 5_000_000_000, by: 10_000_000).map { arrivals.surely(from: 7, to: 7 + $0) }
        #expect(zip(stretches, stretches.dropFirst()).allSatisfy { abs($1 - $0 - 1.8) < 1e-6 }, "\(stretches.prefix(5))")
        #expect(abs((stretches.last ?? 0) - 899) < 1e-6)
        #expect(abs(arrivals.most(from: 7, to: 1_000_000_007) - 250) < 1e-6)
    }
}
