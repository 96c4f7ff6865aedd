/// Which gpsd client states are news for an event: a change of kind (`GPSDClientState.headline`),
/// except the reconnections of a receiver that has gone quiet. With the receiver unplugged, gpsd
/// answers each connection and the client drops it after a minute of silence: "connected",
/// "receiver silent", "disconnected (no report…)" three times a cycle, for ever, pushing a
/// detection out of the page's recent events. The silence is told once, and the next news is the
/// receiver reporting again (or gpsd itself going).
struct GNSSEventGate {
    private var last = ""
    /// Reports counted when the receiver fell silent; nil while it reports.
    private var quietAt: Int?

    mutating func shouldPublish(headline: String, reports: Int) -> Bool {
        if let at = quietAt, reports > at { quietAt = nil }
        let reconnecting = quietAt != nil && (headline == "connected" || headline.hasPrefix("disconnected (no report"))
        guard headline != last, !reconnecting else { return false }
        last = headline
        // Other news (gpsd itself gone) ends the episode: gpsd back is news again.
        quietAt = headline == "receiver silent" ? reports : nil
        return true
    }
}
