/// How long a driver waits after switching a sensor on before it takes samples: until the chip
/// has output a sample taken at or after `startup`, the time its output is not yet valid. That
/// is the first sample period that starts at or after it, and one period more for that sample
/// to come out.
enum StartupWait {
    static func nanoseconds(startup: Int64, rateHz: Double) -> Int64 {
        guard rateHz.isFinite, rateHz > 0 else { return startup }
        // Less a millionth of a period: a start-up time rounded up to whole nanoseconds from a
        // whole number of periods must not count one period more.
        let periods = (Double(startup) / 1e9 * rateHz - 1e-6).rounded(.up) + 1
        return Int64((periods / rateHz * 1e9).rounded(.up))
    }
}
