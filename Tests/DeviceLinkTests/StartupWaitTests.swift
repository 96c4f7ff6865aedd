import Testing
@testable import DeviceLink

@Suite struct StartupWaitTests {
    /// A chip outputs sample i, taken i periods after it is switched on, one period later. After
    /// the wait the newest sample out was taken at or after the start-up time, and the wait is no
    /// more than two periods longer than that time.
    @Test(arguments: [12.5, 26, 100, 187.5, 208, 416, 1000, 1666])
    func theNewestSampleAfterTheWaitWasTakenAfterTheStartUp(rateHz: Double) {
        for startup: Int64 in [0, 20_000_000, 35_000_000, 86_538_462, 192_307_693] {
            let wait = StartupWait.nanoseconds(startup: startup, rateHz: rateHz)
            let out = Int((Double(wait) / 1e9 * rateHz).rounded(.down))
            let newestTakenAt = Double(out - 1) / rateHz
            #expect(newestTakenAt * 1e9 >= Double(startup) - 1, "\(rateHz) Hz, \(startup) ns: waited \(wait)")
            #expect(Double(wait) <= Double(startup) + 2e9 / rateHz + 1, "\(rateHz) Hz, \(startup) ns: waited \(wait)")
        }
    }
}
