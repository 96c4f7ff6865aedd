import DeviceLink
import FallDetect
import Foundation

/// The `api-body` target: a POST body as the routes read it. The input's first line names a
/// route, the rest is the body; the body goes through the same JSON boundary the routes use
/// (`APIRoutes.object`, at most `maximumBodyBytes`), then through the constructors that route
/// takes its fields with.
enum APIRequestFuzzing {
    static let routes = [
        "/api/login", "/api/survey", "/api/disarm", "/api/keychain/beep", "/api/keychain/press", "/api/keychain/simulate",
        "/api/setup/person", "/api/setup/pin", "/api/setup/contact", "/api/setup/contact/delete", "/api/setup/detector",
        "/api/keychain/scan", "/api/keychain/pair",
    ]

    static func consume(_ bytes: [UInt8]) -> FuzzTarget.Outcome {
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let route = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = bytes[min(newline + 1, bytes.endIndex)...].prefix(APIRoutes.maximumBodyBytes)
        guard let object = APIRoutes.object(Data(body)) else { return .rejected }
        let chosen = routes.contains(route) ? [route] : routes
        return chosen.map { fields(of: object, for: $0) }.contains(true) ? .accepted : .rejected
    }

    /// True when the route would take the body's fields.
    private static func fields(of body: [String: Any], for route: String) -> Bool {
        func string(_ key: String) -> String { body[key] as? String ?? "" }
        switch route {
        case "/api/login": return body["token"] is String
        case "/api/survey": return SurveyAnswer(rawValue: string("answer")) != nil
        case "/api/disarm": return !string("pin").isEmpty && string("pin").count <= 32
        case "/api/keychain/beep": return ((body["seconds"] as? Double) ?? 2).isFinite
        case "/api/keychain/press": return KeychainPress(rawValue: body["pattern"] as? String ?? "single") != nil
        case "/api/keychain/simulate": return (body["battery"] as? Int).map { (0...100).contains($0) } ?? (body["in_range"] is Bool)
        case "/api/setup/person":
            return (try? ProtectedPerson(
                fullName: string("name").trimmingCharacters(in: .whitespaces), phone: string("phone"), country: string("country").uppercased())) != nil
        case "/api/setup/pin":
            return (try? PINHasher.validate(string("new_pin"))) != nil && body["confirm"] as? String == string("new_pin")
        case "/api/setup/contact":
            let contact = try? Contact(name: string("name").trimmingCharacters(in: .whitespaces), phone: string("phone"), channel: body["channel"] as? String ?? "sms")
            return contact != nil && (body["replacing"] as? String).map { PhoneNumber($0) != nil } ?? true
        case "/api/setup/contact/delete": return PhoneNumber(string("phone")) != nil
        case "/api/setup/detector":
            return (try? DetectorChoice(profile: string("profile"), sensitivity: body["sensitivity"] as? String ?? "standard")) != nil
        case "/api/keychain/scan": return (1...30).contains((body["seconds"] as? Double) ?? 5)
        case "/api/keychain/pair":
            _ = BluetoothAddressType(rawValue: body["address_type"] as? String ?? "public")
            _ = (body["confirm_seconds"] as? Double).map { min(max($0, 3), 60) }
            return BluetoothAddress(string("address")) != nil
        default: return false
        }
    }
}
