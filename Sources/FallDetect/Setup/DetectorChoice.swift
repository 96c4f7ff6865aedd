/// The detection profile and sensitivity chosen on the device's page, kept in its database; the
/// daemon rebuilds its detectors with them (see `DetectionProfile.named` and `with(sensitivity:)`).
public struct DetectorChoice: Sendable, Equatable, Codable {
    public var profile: String
    public var sensitivity: String

    /// Fails with the field that is not one of the known names.
    public init(profile: String, sensitivity: String) throws(FallDetectError) {
        guard DetectionProfile.named(profile) != nil else {
            throw FallDetectError(.invalidArgument, "profile must be one of \(DetectionProfile.all.map(\.name).joined(separator: ", "))", field: "profile")
        }
        guard DetectionSensitivity(rawValue: sensitivity) != nil else {
            throw FallDetectError(.invalidArgument, "sensitivity must be one of \(DetectionSensitivity.allCases.map(\.rawValue).joined(separator: ", "))", field: "sensitivity")
        }
        self.profile = profile.lowercased()
        self.sensitivity = sensitivity
    }

    /// The profile moved to the sensitivity, ready for a `DetectionPipeline`.
    public var detectionProfile: DetectionProfile? {
        guard let profile = DetectionProfile.named(profile), let sensitivity = DetectionSensitivity(rawValue: sensitivity) else { return nil }
        return profile.with(sensitivity: sensitivity)
    }
}
