import Foundation

/// A drill script: JSON lines `{"at": SECONDS, "do": ACTION, ...}`. Lines that cannot be read are
/// reported with their number and left out; the rest of the script still runs.
public struct DrillScript: Sendable {
    public var steps: [DrillStep]
    public var errors: [FallDetectError]

    /// The latest step time: the runner walks the virtual clock a second at a time, so a step
    /// years away would run practically for ever.
    public static let maximumSeconds = 86_400.0

    public init(text: String, path: String) {
        var steps: [DrillStep] = []
        var errors: [FallDetectError] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("//") { continue }
            do {
                steps.append(try Self.step(line, number: index + 1, path: path))
            } catch {
                errors.append(error)
            }
        }
        // Stable: equal times keep script order.
        self.steps = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        self.errors = errors
    }

    public init(path: String) throws(FallDetectError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FallDetectError(.io, "cannot read the drill script", path: path)
        }
        self.init(text: String(decoding: data, as: UTF8.self), path: path)
    }

    static func step(_ line: String, number lineNumber: Int, path: String) throws(FallDetectError) -> DrillStep {
        func fail(_ message: String, field: String? = nil) -> FallDetectError {
            FallDetectError(.malformedRow, message, path: path, line: lineNumber, field: field)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        guard let at = (object["at"] as? NSNumber)?.doubleValue, at.isFinite, (0...Self.maximumSeconds).contains(at) else {
            throw fail("\"at\" must be a number of seconds from 0 to \(Int(Self.maximumSeconds)) (one day: a drill plays an incident, and the clock steps one second at a time)", field: "at")
        }
        guard let verb = object["do"] as? String else { throw fail("\"do\" names the action", field: "do") }
        func string(_ key: String) throws(FallDetectError) -> String {
            guard let value = object[key] as? String, !value.isEmpty else { throw fail("\(verb) needs \"\(key)\"", field: key) }
            return value
        }
        func number(_ key: String) throws(FallDetectError) -> Double {
            guard let value = (object[key] as? NSNumber)?.doubleValue, value.isFinite else { throw fail("\(verb) needs a number \"\(key)\"", field: key) }
            return value
        }
        let action: DrillStep.Action
        switch verb {
        case "start": action = .start(name: try string("name"), phone: try string("phone"), country: try string("country"))
        case "contact":
            action = .contact(name: try string("name"), phone: try string("phone"), pin: object["pin"] as? String, channel: object["channel"] as? String)
        case "set_pin": action = .setPIN(pin: try string("pin"), duressPIN: object["duress_pin"] as? String)
        case "detect":
            switch try string("kind") {
            case "fall": action = .detect(.automaticFall)
            case "crash": action = .detect(.automaticCrash)
            case let other: throw fail("kind must be fall or crash, not \"\(other)\"", field: "kind")
            }
        case "sos": action = .sos(fromKeychain: (object["source"] as? String) == "keychain")
        case "im_fine": action = .imFine
        case "up_again": action = .followUp(.recovered)
        case "stayed_down": action = .followUp(.stayedDown)
        case "quit": action = .quit
        case "call112": action = .call112
        case "cancel": action = .cancel
        case "resume": action = .resume
        case "crash": action = .crash
        case "advance": action = .advance
        case "survey":
            guard let answer = SurveyAnswer(rawValue: try string("answer")) else {
                throw fail("answer must be didnt_fall, fell or no_help_needed", field: "answer")
            }
            action = .survey(answer)
        case "disarm": action = .disarm(pin: try string("pin"))
        case "position":
            let lat = try number("lat")
            let lon = try number("lon")
            guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw fail("lat/lon out of range", field: "lat") }
            action = .position(
                latitude: lat, longitude: lon, accuracy: (object["accuracy_m"] as? NSNumber)?.doubleValue,
                speed: (object["speed_mps"] as? NSNumber)?.doubleValue)
        case "network":
            guard let up = object["up"] as? Bool else { throw fail("network needs \"up\": true or false", field: "up") }
            action = .network(up: up)
        case "battery":
            let percent = try number("percent")
            guard (0...100).contains(percent) else { throw fail("percent must be 0 to 100", field: "percent") }
            action = .battery(percent: Int(percent))
        default:
            throw fail("unknown action \"\(verb)\"", field: "do")
        }
        return DrillStep(at: at, action: action, line: lineNumber)
    }
}
