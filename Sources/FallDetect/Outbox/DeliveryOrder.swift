/// Which waiting message goes next, as a pure function of the outbox and the channels' health:
///
/// - alerts first, then by creation;
/// - a follow-up waits while its recipient's alert is still undelivered (an abandoned alert no
///   longer holds anything back);
/// - a healthy channel takes everything due; a failing one only its probe, when the probe is due:
///   the message waiting longest for a try: by its last attempt, or, never tried, by when it
///   fell due (before one tried at that same time); alerts first among equals. So the probe goes round: one recipient whose alert
///   keeps failing cannot starve the others' follow-ups on the same channel, and a follow-up
///   queued after an alert's last try waits behind it. Both times move with clock steps
///   (`movePendingTimes`), so a step cannot pin one message as the probe. A probe that
///   succeeds makes the channel healthy, and every waiting alert goes in that same pass.
enum DeliveryOrder {
    /// Messages that may be attempted now, in the order to try them. Only `eligible` ones are
    /// offered (a pass takes what was queued by its start), but every waiting alert still holds
    /// its recipient's follow-ups back.
    static func due(
        _ pending: [PendingMessage], health: [ChannelHealth], at now: Int64, eligible: (PendingMessage) -> Bool = { _ in true }
    ) -> [PendingMessage] {
        let blocked = recipientsAwaitingTheirAlert(pending)
        let failing = Dictionary(health.map { ($0.channel, $0) }, uniquingKeysWith: { first, _ in first })
        var probes: [String: PendingMessage] = [:]
        var result: [PendingMessage] = []
        for message in pending where message.nextAttemptAt <= now && (message.isAlert || !blocked.contains(message.recipientKey)) && eligible(message) {
            guard let channel = failing[message.message.channel] else {
                result.append(message)
                continue
            }
            guard channel.nextProbeAt <= now else { continue }
            if let current = probes[channel.channel], !isBetterProbe(message, than: current) { continue }
            probes[channel.channel] = message
        }
        return (result + probes.values).sorted { ($0.priority, $0.message.id) < ($1.priority, $1.message.id) }
    }

    /// When something next falls due (UTC ns), nil when nothing waits.
    static func nextDue(_ pending: [PendingMessage], health: [ChannelHealth]) -> Int64? {
        let blocked = recipientsAwaitingTheirAlert(pending)
        let failing = Dictionary(health.map { ($0.channel, $0.nextProbeAt) }, uniquingKeysWith: { first, _ in first })
        return pending.lazy
            .filter { $0.isAlert || !blocked.contains($0.recipientKey) }
            .map { message in max(message.nextAttemptAt, failing[message.message.channel] ?? Int64.min) }
            .min()
    }

    private static func recipientsAwaitingTheirAlert(_ pending: [PendingMessage]) -> Set<String> {
        Set(pending.filter(\.isAlert).map(\.recipientKey))
    }

    private static func isBetterProbe(_ a: PendingMessage, than b: PendingMessage) -> Bool {
        // At the same time, one never tried before one tried then.
        (a.lastAttemptAt ?? a.nextAttemptAt, a.lastAttemptAt == nil ? 0 : 1, a.priority, a.message.id)
            < (b.lastAttemptAt ?? b.nextAttemptAt, b.lastAttemptAt == nil ? 0 : 1, b.priority, b.message.id)
    }
}
