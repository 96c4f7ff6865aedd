import FallDetect

/// `[detector]`: which detectors run and how eagerly. Optional: walking, standard sensitivity,
/// the shipped model.
struct DetectorSettings: Sendable, Equatable {
    /// The named profile moved to `sensitivity` (`DetectionProfile.with(sensitivity:)`).
    var profile: DetectionProfile
    var sensitivity: DetectionSensitivity
    /// Another learned fall model (`detectord train` writes one); nil uses the shipped model.
    var modelPath: String?
    /// Minutes off the body before the wearer is told; nil (0 in the file) never tells.
    var notWornMessageMinutes: Double?
    /// The file names the profile or the sensitivity: the page shows them but may not change them.
    var fromFile = false

    static let keys = ["profile", "sensitivity", "model", "not_worn_message_minutes"]
    static let defaultNotWornMessageMinutes = 30.0

    init(
        profile: DetectionProfile = .walking, sensitivity: DetectionSensitivity = .standard, modelPath: String? = nil,
        notWornMessageMinutes: Double? = DetectorSettings.defaultNotWornMessageMinutes
    ) {
        self.profile = profile.with(sensitivity: sensitivity)
        self.sensitivity = sensitivity
        self.modelPath = modelPath
        self.notWornMessageMinutes = notWornMessageMinutes
    }

    /// Reads the table; a model file is parsed whole, so a broken one fails here rather than at start.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var profile: DetectionProfile? = .walking
        if let name = table.string("profile") {
            profile = table.oneOf("profile", name, DetectionProfile.all.map(\.name)).flatMap(DetectionProfile.named)
        }
        let sensitivity: DetectionSensitivity? = table.contains("sensitivity") ? table.choice("sensitivity") : .standard
        var modelOK = true
        let model = table.path("model")
        if let model {
            do {
                let bytes = try ReferencedFile.read(model)
                _ = try FallModelFile(text: String(decoding: bytes, as: UTF8.self), path: model)
            } catch {
                table.context.report(table.field("model"), error.code == .io ? error.message : "not a learned model: \(error)")
                modelOK = false
            }
        }
        var minutes: Double? = Self.defaultNotWornMessageMinutes
        if table.contains("not_worn_message_minutes") {
            guard let value = table.number("not_worn_message_minutes", in: 0...1440) else { return nil }
            minutes = value > 0 ? value : nil
        }
        guard let profile, let sensitivity, modelOK else { return nil }
        self.init(profile: profile, sensitivity: sensitivity, modelPath: model, notWornMessageMinutes: minutes)
        fromFile = table.contains("profile") || table.contains("sensitivity")
    }
}
