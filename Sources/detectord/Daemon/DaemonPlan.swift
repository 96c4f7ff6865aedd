import FallDetect

/// Everything the daemon needs to start, resolved from the configuration file: built sources and
/// channels, checked values. `RunCommand` makes it; tests may make one directly.
struct DaemonPlan: Sendable {
    var source: any SensorSource
    /// The source ends by itself (a replay that does not loop).
    var sourceIsFinite: Bool
    var profile: DetectionProfile
    /// The sensitivity `profile` was moved to (for the page).
    var sensitivity = "standard"
    /// nil runs the shipped model.
    var fallModelPath: String?
    /// Seconds off the body before the wearer is told (`[detector] not_worn_message_minutes`).
    var notWornMessageAfter: Double? = DetectorSettings.defaultNotWornMessageMinutes * 60
    var stallSeconds: Double = 1
    /// Seconds of sensor fault before the contacts are told (`[sensor] fault_message_minutes`);
    /// nil, the default, never tells them.
    var sensorFaultMessageAfter: Double?
    /// `auto`: the pipeline estimates the mounting from the samples (`MountingEstimator`).
    var axes: AxisChoice = .fixed(.identity)
    var gnss: GNSSChoice
    var workflowSettings: WorkflowSettings
    /// Countdowns shortened for a demonstration: every message says so.
    var demo: Bool
    var person: ProtectedPerson?
    /// nil: the page manages them.
    var contacts: [Contact]?
    var pinHash: String?
    var duressHash: String?
    var channels: [String: any AlertChannel]
    /// `[keychain]`: the Bluetooth LE panic button, made from its binding in the database.
    var keychainSettings = KeychainSettings()
    /// A fixed keychain link instead (tests at the daemon's seam).
    var keychain: (any KeychainLink)? = nil
    var databasePath: String
    /// `[storage] position_retention_hours`, in seconds.
    var positionRetention: Double? = StorageSettings.defaultPositionRetentionHours * 3600
    var apiHost: String
    var apiPort: Int
    /// HTTPS for the API and the page.
    var tls: TLSFiles? = nil
    /// `[detector] profile` or `sensitivity` is in the file: the page may not change them.
    var detectorFromFile = false
    /// Channels a contact added on the page may use, the default first.
    var contactChannels = ["console"]
    /// Exit once a finite source has ended and the workflow has nothing left to do (`make run`).
    var exitWhenIdle = false
    /// Seconds between status events in the log; 0 for none.
    var statusEvery: Double = 60
    /// What the source says on its own thread (a chip found, a gap); published as events.
    var sensorNotices = SensorNoticeRelay()
    /// `run --record`: the live samples, fixes and gaps go to this .detrec file too.
    var recordPath: String?
    /// The chip's gyroscope full scale, for the recording's header.
    var gyroscopeRange: Float = 2000

    struct TLSFiles: Sendable {
        var certificate: String
        var key: String
    }
}
