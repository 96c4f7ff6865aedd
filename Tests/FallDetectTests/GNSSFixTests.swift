import Foundation
import Testing
@testable import FallDetect

/// What counts as a position: a recording may hold any bytes, and gpsd's NaN is already "not
/// reported"; a NaN or out-of-range coordinate must not become the wearer's trusted position.
@Suite struct GNSSFixTests {
    static func fix(_ latitude: Double, _ longitude: Double) -> GNSSFix {
        GNSSFix(timestampNanoseconds: 0, mode: .threeD, status: .gps, latitude: latitude, longitude: longitude)
    }

    @Test func aPositionIsFiniteAndOnTheGlobe() {
        #expect(Self.fix(38.7, -9.1).isTrusted)
        #expect(Self.fix(-90, 180).isTrusted)
        for (latitude, longitude) in [(Double.nan, 0.0), (0, .infinity), (91, 0), (0, -180.5), (-.infinity, .nan)] {
            #expect(!Self.fix(latitude, longitude).hasPosition, "\(latitude), \(longitude)")
        }
    }

    @Test func aStoredPositionKeepsNoNaN() throws {
        let position = StoredPosition(latitude: 38.7, longitude: -9.1, accuracy: .nan, speed: .infinity)
        #expect(position.accuracy == nil && position.speed == nil)
        _ = try JSONEncoder().encode(position)
    }
}
