import Foundation

/// The texts contacts receive, one per `MessageKind`, in the product's wording.
public enum MessageText {
    public static func text(_ kind: MessageKind, _ c: MessageContext, batteryPercent: Int? = nil) -> String {
        let name = c.person.fullName
        let body: String
        switch kind {
        case .alert:
            body = "ALERT! \(name) has activated \(c.possessive) \(c.device) alarm and may be in an emergency situation. \(lastKnown(c))"
        case .keychainRepeat:
            body = "ALERT (repeated)! \(name) raised an alarm from \(c.possessive) keychain and has not disarmed it. \(lastKnown(c))"
        case .locationUpdate:
            body = "Location update for \(name): \(place(c)) at \(clock(c, c.positionTime ?? c.time)).\(link(c))"
        case .allClear:
            body = "All clear: \(name) has cancelled the alarm and is safe. No action is needed."
        case .trackingStopped:
            body = "Location tracking for \(name) has stopped. \(lastKnown(c))"
        case .duress:
            body = "DURESS! \(name) entered the duress code: the \(c.device) looks disarmed but \(name) may be in danger. Do not reply to the device. \(lastKnown(c))"
        case .lowBattery:
            body = "\(name)'s keychain battery is low (\(batteryPercent.map { "\($0) %" } ?? "below 20 %")). Please help replace it."
        case .sensorFault:
            body = "\(name)'s \(c.device) has had no working motion sensor since \(clock(c)), so it cannot detect a fall until the sensor is fixed. "
                + "This is not an emergency alert; SOS from the keychain still works."
        case .notWorn:
            body = "\(name), your \(c.device) seems to be off: it has lain still, as nobody wearing it does, until \(clock(c)). "
                + "It cannot detect a fall while it is off. Please put it back on, or ignore this if you meant to take it off."
        case .keychainLost:
            body = "\(name), your keychain has been out of reach for a while (at \(clock(c))): pressing it cannot raise an alarm until it is back. "
                + "Keep it near your \(c.device) and check its battery."
        }
        return c.isTest ? "TEST - no action needed. " + body : body
    }

    /// "Last known location was <address> <lat>, <lon> at <local time>." with a map link.
    static func lastKnown(_ c: MessageContext) -> String {
        guard c.position?.latitude != nil else { return "No location is known (at \(clock(c)))." }
        return "Last known location was \(place(c)) at \(clock(c, c.positionTime ?? c.time)).\(link(c))"
    }

    static func place(_ c: MessageContext) -> String {
        guard let lat = c.position?.latitude, let lon = c.position?.longitude else { return "unknown" }
        var coordinates = String(format: "%.5f, %.5f", lat, lon)
        // Five decimals claim a metre; a poor fix says how far off it may be.
        if let accuracy = c.position?.horizontalAccuracy, accuracy > StoredPosition.poorAccuracy {
            coordinates += String(format: " (within %.0f m)", accuracy)
        }
        return c.address.map { "\($0) \(coordinates)" } ?? coordinates
    }

    static func link(_ c: MessageContext) -> String {
        guard let lat = c.position?.latitude, let lon = c.position?.longitude else { return "" }
        return String(format: " https://www.openstreetmap.org/?mlat=%.5f&mlon=%.5f#map=17/%.5f/%.5f", lat, lon, lat, lon)
    }

    /// "14:05 CET on 22 Nov": local time in the contacts' zone, with the zone so nobody guesses.
    static func clock(_ c: MessageContext, _ time: Date? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = c.timeZone
        formatter.dateFormat = "HH:mm zzz 'on' d MMM"
        return formatter.string(from: time ?? c.time)
    }
}
