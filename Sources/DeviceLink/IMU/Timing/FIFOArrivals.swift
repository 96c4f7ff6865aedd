/// How many samples a FIFO can have gained, and how many it surely gained, over a stretch of the
/// drain clock: what lets a driver tell a FIFO that filled (and dropped samples) while it was
/// read from one that was only being emptied while samples came. The chip's real rate is not
/// known this early, so the bounds take a fast chip at a quarter above the nominal rate and a
/// slow one at 0.9 of it, wider than the few percent a crystal-less board is off.
struct FIFOArrivals: Sendable {
    let rateHz: Double

    /// The most samples that can have come between the two times; the caller adds the samples
    /// that may land at once as its margin.
    func most(from start: Int64, to end: Int64) -> Double {
        Self.seconds(from: start, to: end) * rateHz * 1.25
    }

    /// The fewest that surely came: at 0.9 of the rate, less one for where in its period the
    /// stretch began.
    func surely(from start: Int64, to end: Int64) -> Double {
        max(0, Self.seconds(from: start, to: end) * rateHz * 0.9 - 1)
    }

    private static func seconds(from start: Int64, to end: Int64) -> Double {
        Double(end - start) / 1e9
    }
}
