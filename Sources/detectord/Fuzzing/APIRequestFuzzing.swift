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

    /// True when the route would take the body's fields (the routes' own decoders).
    private static func fields(of body: [String: Any], for route: String) -> Bool {
        func takes<T>(_ decode: (APIRequestFields.Body) throws(FallDetectError) -> T) -> Bool {
            do throws(FallDetectError) { _ = try decode(body); return true } catch { return false }
        }
        switch route {
        case "/api/login": return APIRequestFields.loginToken(body) != nil
        case "/api/survey": return takes(APIRequestFields.survey)
        case "/api/disarm": return takes(APIRequestFields.disarmPIN)
        case "/api/keychain/beep": return takes(APIRequestFields.beepSeconds)
        case "/api/keychain/press": return takes(APIRequestFields.pressPattern)
        case "/api/keychain/simulate": return takes(APIRequestFields.keychainSimulation)
        case "/api/setup/person": return takes(APIRequestFields.person)
        case "/api/setup/pin": return takes(APIRequestFields.newPIN)
        case "/api/setup/contact": return takes { (body) throws(FallDetectError) in try APIRequestFields.contact(body, channels: RunCommand.contactChannels(["sms", "webhook", "console"])) }
        case "/api/setup/contact/delete": return takes(APIRequestFields.contactToDelete)
        case "/api/setup/detector": return takes(APIRequestFields.detector)
        case "/api/keychain/scan": return takes(APIRequestFields.scanSeconds)
        case "/api/keychain/pair": return takes(APIRequestFields.pairing)
        default: return false
        }
    }
}
