import FallDetect
import Foundation

/// Payloads the channel tests of every module share.
public enum ExamplePayload {
    /// An alert with every field set: position with its accuracy and time, previous positions
    /// trusted and not, heading, speed and evidence.
    public static var full: EmergencyPayload {
        EmergencyPayload(
            kind: .alert, text: "ALERT! Jane Doe has activated her fall detector alarm.", trigger: .automaticFall, isTest: false,
            timestamp: Date(timeIntervalSince1970: 1_767_268_800), sequence: 3, deviceID: "det-0042", personID: "p-17",
            recipient: "+33612345678",
            position: .init(latitude: 48.85661, longitude: 2.35222, accuracy: 4.5, trusted: true, timestamp: Date(timeIntervalSince1970: 1_767_268_799)),
            previousPositions: [
                .init(latitude: 48.8567, longitude: 2.3521, trusted: true),
                .init(latitude: 48.8568, longitude: 2.352, accuracy: 12, trusted: false),
                .init(latitude: 0, longitude: 0, trusted: false),
            ],
            heading: 270, speed: 1.25, evidence: .init(peakG: 3.5, tiltDegrees: 82, stillnessSeconds: 12))
    }
}
