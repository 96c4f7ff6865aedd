import Foundation
import TestSupport
import Testing
@testable import FallDetect

@Suite struct EmergencyPayloadTests {
    /// The shared example, with every field set.
    static func example() -> EmergencyPayload { ExamplePayload.full }

    /// Receivers parse these names: changing one breaks them, so this test pins the bytes.
    @Test func theWireFormatIsPinned() throws {
        let json = String(decoding: try Self.example().json(), as: UTF8.self)
        #expect(json == PINNED)
    }

    @Test func unknownValuesAreLeftOutNotZero() throws {
        let payload = EmergencyPayload(
            kind: .allClear, text: "All clear", trigger: nil, isTest: true, timestamp: Date(timeIntervalSince1970: 0), sequence: 9,
            deviceID: "d", personID: "p")
        let json = String(decoding: try payload.json(), as: UTF8.self)
        #expect(json == #"{"device_id":"d","message_kind":"all_clear","person_id":"p","previous_positions":[],"sequence":9,"test":true,"text":"All clear","timestamp":"1970-01-01T00:00:00Z","version":1}"#)
    }

    @Test func roundTrips() throws {
        let payload = Self.example()
        #expect(try EmergencyPayload.decode(payload.json()) == payload)
    }

    @Test func keepsOnlyTheTwoPreviousPositions() {
        #expect(Self.example().previousPositions.count == 2)
    }

    @Test func positionCarriesTheFixTrust() throws {
        var fix = GNSSFix(timestampNanoseconds: 5, utcNanoseconds: 1_767_268_800_000_000_000, mode: .threeD, latitude: 1, longitude: 2, horizontalAccuracy: 3)
        let trusted = try #require(EmergencyPayload.Position(fix))
        #expect(trusted == .init(latitude: 1, longitude: 2, accuracy: 3, trusted: true, timestamp: Date(timeIntervalSince1970: 1_767_268_800)))
        fix.status = .simulated
        #expect(EmergencyPayload.Position(fix)?.trusted == false)
        #expect(EmergencyPayload.Position(GNSSFix(timestampNanoseconds: 0, mode: .none)) == nil)
    }

    @Test func aNonFiniteNumberIsAnErrorNotACrash() {
        var payload = Self.example()
        payload.speed = .nan
        #expect(throws: FallDetectError.self) { try payload.json() }
    }

    @Test func garbageIsAnError() {
        #expect(throws: FallDetectError.self) { try EmergencyPayload.decode(Data("{\"version\":1}".utf8)) }
    }
}

/// Sorted keys, no whitespace, "/" unescaped, dates as ISO 8601 UTC seconds.
private let PINNED = #"{"device_id":"det-0042","evidence":{"peak_g":3.5,"stillness_s":12,"tilt_deg":82},"heading_deg":270,"message_kind":"alert","person_id":"p-17","position":{"accuracy_m":4.5,"latitude":48.85661,"longitude":2.35222,"timestamp":"2026-01-01T11:59:59Z","trusted":true},"previous_positions":[{"latitude":48.8567,"longitude":2.3521,"trusted":true},{"accuracy_m":12,"latitude":48.8568,"longitude":2.352,"trusted":false}],"recipient":"+33612345678","sequence":3,"speed_mps":1.25,"test":false,"text":"ALERT! Jane Doe has activated her fall detector alarm.","timestamp":"2026-01-01T12:00:00Z","trigger":"automatic_fall","version":1}"#
