import Testing
@testable import FallDetect

@Suite struct GNSSHealthTests {
    private let second: Int64 = 1_000_000_000

    private func fix(at t: Int64, mode: GNSSFix.Mode = .threeD, status: GNSSFix.Status = .unknown, eph: Double? = 5, sats: Int? = 8) -> GNSSFix {
        GNSSFix(
            timestampNanoseconds: t, mode: mode, status: status,
            latitude: mode == .none ? nil : 48.1, longitude: mode == .none ? nil : 11.5,
            horizontalAccuracy: eph, satellitesUsed: sats)
    }

    @Test func goodNeedsARecentAccurate3DFixFromEnoughSatellites() {
        var health = GNSSHealth()
        health.update(fix(at: 0))
        #expect(health.quality(at: 1 * second) == .good)
        #expect(health.quality(at: 4 * second) == .weak, "older than 3 s")
        #expect(health.quality(at: 31 * second) == .none, "older than 30 s")
    }

    @Test(arguments: [
        (GNSSFix.Mode.twoD, 5.0, 8), (.threeD, 25.0, 8), (.threeD, 5.0, 3),
    ])
    func weakerFixesAreWeak(mode: GNSSFix.Mode, eph: Double, sats: Int) {
        var health = GNSSHealth()
        health.update(fix(at: 0, mode: mode, eph: eph, sats: sats))
        #expect(health.quality(at: 0) == .weak)
    }

    @Test func lastPositionSurvivesLossOfFix() {
        var health = GNSSHealth()
        health.update(fix(at: 0))
        health.update(fix(at: 2 * second, mode: .none))
        #expect(health.quality(at: 2 * second) == .none)
        #expect(health.lastPosition?.timestampNanoseconds == 0)
        #expect(health.positionAge(at: 2 * second) == 2)
    }

    @Test func simulatedFixesAreNeverTrusted() {
        var health = GNSSHealth()
        health.update(fix(at: 0, status: .simulated))
        #expect(health.quality(at: 0) == .none)
        #expect(health.lastPosition == nil)
    }

    @Test func satelliteCountCarriesOverToReportsWithoutOne() {
        var health = GNSSHealth()
        health.update(fix(at: 0, sats: 3))
        health.update(fix(at: second, sats: nil))
        #expect(health.lastFix?.satellitesUsed == 3)
        #expect(health.quality(at: second) == .weak)
    }
}
