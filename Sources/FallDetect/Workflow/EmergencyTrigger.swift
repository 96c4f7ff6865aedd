/// What started an emergency; carried in every message and in the emergency payload.
public enum EmergencyTrigger: String, Sendable, Codable {
    case automaticFall = "automatic_fall"
    case automaticCrash = "automatic_crash"
    /// A press on the keychain button, the API, or the device's own button.
    case manual
    /// A test alarm from set-up: the whole chain runs, every message says it is a test, and
    /// protection resumes by itself once the alert is delivered.
    case test = "test_alarm"
}
