import Testing
@testable import FallDetect

@Suite struct DrillScriptTests {
    @Test func readsEveryActionAndSortsByTimeKeepingOrder() {
        let script = DrillScript(text: """
            {"at": 5, "do": "detect", "kind": "crash"}
            {"at": 0, "do": "start", "name": "Ada", "phone": "+447700900123", "country": "GB"}
            # a comment
            {"at": 0, "do": "contact", "name": "Bob", "phone": "+33612345678"}
            {"at": 6, "do": "position", "lat": 1.5, "lon": 2.5, "accuracy_m": 5, "speed_mps": 3}
            {"at": 7, "do": "survey", "answer": "fell"}
            {"at": 8, "do": "network", "up": false}
            {"at": 9, "do": "sos", "source": "keychain"}
            {"at": 10, "do": "battery", "percent": 12}
            {"at": 11, "do": "up_again"}
            {"at": 12, "do": "stayed_down"}
            """, path: "s.jsonl")
        #expect(script.errors.isEmpty)
        #expect(script.steps.map(\.line) == [2, 4, 1, 5, 6, 7, 8, 9, 10, 11])
        #expect(script.steps[8].action == .followUp(.recovered))
        #expect(script.steps[9].action == .followUp(.stayedDown))
        #expect(script.steps[2].action == .detect(.automaticCrash))
        #expect(script.steps[3].action == .position(latitude: 1.5, longitude: 2.5, accuracy: 5, speed: 3))
        #expect(script.steps[6].action == .sos(fromKeychain: true))
    }

    @Test func badLinesAreReportedWithTheirNumberAndSkipped() {
        let script = DrillScript(text: """
            {"at": 0, "do": "im_fine"}
            not json
            {"do": "quit"}
            {"at": 1, "do": "fly"}
            {"at": 2, "do": "detect", "kind": "meteor"}
            {"at": 3, "do": "survey", "answer": "maybe"}
            {"at": 4, "do": "position", "lat": 95, "lon": 0}
            {"at": 5, "do": "network"}
            {"at": 6, "do": "start", "name": "Ada"}
            {"at": 7, "do": "quit"}
            """, path: "bad.jsonl")
        #expect(script.steps.map(\.line) == [1, 10])
        #expect(script.errors.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(script.errors.map(\.field) == [nil, "at", "do", "kind", "answer", "lat", "up", "phone"])
        #expect(script.errors[2].description == "bad.jsonl:4: do: unknown action \"fly\"")
    }

    @Test func aStepYearsAwayIsRefusedRatherThanRunForEver() {
        let script = DrillScript(text: "{\"at\": 1000000000, \"do\": \"advance\"}\n{\"at\": 86400, \"do\": \"advance\"}\n", path: "far.jsonl")
        #expect(script.steps.count == 1)
        #expect(script.errors.map(\.field) == ["at"])
        #expect(script.errors.first?.line == 1)
    }
}
