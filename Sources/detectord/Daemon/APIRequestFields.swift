import DeviceLink
import FallDetect
import Foundation

/// What each POST route takes from its JSON body. The routes (`APIRoutes`, `SetupRoutes`) and the
/// `api-body` fuzz target call the same decoders, so the fuzzer reads bodies exactly as the
/// routes do. A refused field is an `invalidArgument` naming it when the page should mark it.
enum APIRequestFields {
    typealias Body = [String: Any]

    static func loginToken(_ body: Body) -> String? {
        body["token"] as? String
    }

    static func survey(_ body: Body) throws(FallDetectError) -> SurveyAnswer {
        guard let text = body["answer"] as? String, let answer = SurveyAnswer(rawValue: text) else {
            throw refused("answer must be one of \(SurveyAnswer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return answer
    }

    static func disarmPIN(_ body: Body) throws(FallDetectError) -> String {
        guard let pin = body["pin"] as? String, !pin.isEmpty, pin.count <= 32 else {
            throw refused("give the PIN as {\"pin\": \"1234\"}")
        }
        return pin
    }

    static func beepSeconds(_ body: Body) throws(FallDetectError) -> Double {
        let seconds = (body["seconds"] as? Double) ?? 2
        guard (0.1...30).contains(seconds) else { throw refused("seconds must be from 0.1 to 30") }
        return seconds
    }

    static func pressPattern(_ body: Body) throws(FallDetectError) -> KeychainPress {
        guard let pattern = KeychainPress(rawValue: body["pattern"] as? String ?? "single") else {
            throw refused("pattern must be one of \(KeychainPress.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return pattern
    }

    static func keychainSimulation(_ body: Body) throws(FallDetectError) -> (inRange: Bool?, battery: Int?) {
        let battery = body["battery"] as? Int
        if let battery, !(0...100).contains(battery) { throw refused("battery must be from 0 to 100") }
        return (body["in_range"] as? Bool, battery)
    }

    static func person(_ body: Body) throws(FallDetectError) -> ProtectedPerson {
        try ProtectedPerson(
            fullName: string(body, "name").trimmingCharacters(in: .whitespaces), phone: string(body, "phone"),
            country: string(body, "country").uppercased())
    }

    /// The new PIN, given twice.
    static func newPIN(_ body: Body) throws(FallDetectError) -> String {
        let new = string(body, "new_pin")
        do throws(FallDetectError) { try PINHasher.validate(new) } catch {
            throw FallDetectError(error.code, error.message, field: "new_pin")
        }
        guard body["confirm"] as? String == new else { throw refused("the two PINs differ", field: "confirm") }
        return new
    }

    /// The contact to save and, when editing, the number it replaces.
    static func contact(_ body: Body, channels: [String]) throws(FallDetectError) -> (contact: Contact, replacing: PhoneNumber?) {
        let channel = body["channel"] as? String ?? channels.first ?? "sms"
        guard channels.contains(channel) else {
            throw refused("channel must be one of \(channels.joined(separator: ", "))", field: "channel")
        }
        let contact = try Contact(name: string(body, "name").trimmingCharacters(in: .whitespaces), phone: string(body, "phone"), channel: channel)
        guard let text = body["replacing"] as? String else { return (contact, nil) }
        guard let replacing = PhoneNumber(text) else { throw refused("not an E.164 number", field: "replacing") }
        return (contact, replacing)
    }

    static func contactToDelete(_ body: Body) throws(FallDetectError) -> PhoneNumber {
        guard let phone = (body["phone"] as? String).flatMap(PhoneNumber.init) else {
            throw refused("give the contact's number as {\"phone\": \"+351913333333\"}", field: "phone")
        }
        return phone
    }

    static func detector(_ body: Body) throws(FallDetectError) -> DetectorChoice {
        try DetectorChoice(profile: string(body, "profile"), sensitivity: body["sensitivity"] as? String ?? "standard")
    }

    static func scanSeconds(_ body: Body) throws(FallDetectError) -> Double {
        let seconds = (body["seconds"] as? Double) ?? 5
        guard (1...30).contains(seconds) else { throw refused("seconds must be from 1 to 30") }
        return seconds
    }

    /// The keychain to pair and how long its button may take to answer (3 to 60 s, 30 by default).
    static func pairing(_ body: Body) throws(FallDetectError) -> (candidate: KeychainCandidate, confirmWithin: Double) {
        guard let address = (body["address"] as? String).flatMap(BluetoothAddress.init) else {
            throw refused("give the keychain's address as AA:BB:CC:DD:EE:FF", field: "address")
        }
        let type = BluetoothAddressType(rawValue: body["address_type"] as? String ?? "public") ?? .public
        let candidate = KeychainCandidate(address: address, addressType: type, name: body["name"] as? String ?? "keychain", rssi: nil)
        return (candidate, (body["confirm_seconds"] as? Double).map { min(max($0, 3), 60) } ?? 30)
    }

    private static func string(_ body: Body, _ key: String) -> String { body[key] as? String ?? "" }

    private static func refused(_ message: String, field: String? = nil) -> FallDetectError {
        FallDetectError(.invalidArgument, message, field: field)
    }
}
