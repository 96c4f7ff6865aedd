/// Everything that can happen to the workflow: the wearer's answers, detections, deliveries,
/// positions and the passing of time (`tick`). PIN checking happens outside (it is deliberately
/// slow); the workflow gets its verdict.
public enum WorkflowInput: Sendable, Equatable {
    case startProtection(ProtectedPerson, gnssConfigured: Bool, hasFix: Bool)
    case stopProtection
    /// An automatic detection (fall or crash).
    case detection(EmergencyTrigger)
    /// A manual SOS; `fromKeychain` makes the alarm repeat its message until disarmed.
    case sos(fromKeychain: Bool)
    /// A test alarm (set-up's last step): countdown, sending and delivery as for an SOS, with
    /// every message marked as a test.
    case testAlarm
    /// What a fall's follow-up stage concluded (`DetectionPipeline.takeFollowUps()`): the wearer
    /// up again withdraws the fall's countdown; the other outcomes leave it running.
    case followUp(FollowUpOutcome.Kind)
    /// "I'm fine" during the countdown (stopAlertCountdown).
    case imFine
    /// "Call 112": silences the alarm, the countdown goes on.
    case call112
    /// Silences the alarm after sending and opens the survey.
    case quit
    case survey(SurveyAnswer)
    /// cancelEmergencyRequest: an all clear to everyone notified, tracking stops.
    case cancel
    /// resumeProtectionAfterEmergency.
    case resume
    case disarm(PINVerdict)
    /// A channel confirmed delivery of a message of this kind.
    case delivered(MessageKind)
    case position(latitude: Double, longitude: Double)
    case tick
}

public enum SurveyAnswer: String, Sendable, Codable, CaseIterable {
    case didntFall = "didnt_fall"
    case fell
    case noHelpNeeded = "no_help_needed"
}

/// The outcome of checking an entered PIN against the stored hashes.
public enum PINVerdict: String, Sendable, Codable {
    case correct
    /// The duress PIN: looks like a disarm, silently keeps the emergency going.
    case duress
    case wrong
}

/// The kinds of message the workflow sends; the message layer turns them into texts.
public enum MessageKind: String, Sendable, Codable, CaseIterable {
    case alert
    case locationUpdate = "location_update"
    case allClear = "all_clear"
    case trackingStopped = "tracking_stopped"
    case keychainRepeat = "keychain_repeat"
    /// Sent silently when the duress PIN is used.
    case duress
    /// The keychain's battery fell below 20 % (once a day at most).
    case lowBattery = "low_battery"
    /// To the wearer: the device has rested off the body for a while (`WearMonitor`).
    case notWorn = "not_worn"
    /// To the contacts, only when the configuration asks (`[sensor] fault_message_minutes`): the
    /// motion sensor has delivered nothing for a while, so falls are not being detected.
    case sensorFault = "sensor_fault"
    /// To the wearer, only when the configuration asks (`[keychain] link_lost_message_minutes`):
    /// the keychain has been out of reach for a while, so its button cannot raise an alarm.
    case keychainLost = "keychain_lost"

    /// What an emergency sends, from its alert to the end of tracking; the all clear answers for
    /// these and no others.
    public static let emergency: [MessageKind] = [.alert, .locationUpdate, .trackingStopped, .keychainRepeat, .duress]
}
