import Testing
@testable import FallDetect

/// The ordering rules on their own: which waiting message goes next, and when.
@Suite struct DeliveryOrderTests {
    private var nextID: Int64 = 0

    private mutating func pending(
        _ kind: MessageKind, to recipient: String, on channel: String = "sms", at t: Int64 = 0, lastTried: Int64? = nil, attempts: Int = 0
    ) -> PendingMessage {
        nextID += 1
        let message = OutboxMessage(
            id: nextID, idempotencyKey: "msg-\(nextID)-\(channel)-\(recipient)", kind: kind.rawValue, channel: channel, recipient: recipient, attempts: attempts)
        return PendingMessage(message: message, createdAt: t, lastAttemptAt: lastTried)
    }

    private func ids(_ messages: [PendingMessage]) -> [Int64] { messages.map(\.message.id) }

    @Test mutating func alertsGoFirstAndFollowUpsWaitForTheirRecipientsAlert() {
        let update = pending(.locationUpdate, to: "+1", at: 0) // 1: an earlier follow-up to +1
        let alertA = pending(.alert, to: "+1", at: 5) // 2
        let repeatB = pending(.keychainRepeat, to: "+2", at: 6) // 3: +2 has no alert waiting
        let alertC = pending(.alert, to: "+3", at: 7) // 4
        let due = DeliveryOrder.due([update, alertA, repeatB, alertC], health: [], at: 10)
        #expect(ids(due) == [2, 4, 3], "alerts first, then by creation; +1's update waits for +1's alert")
        // The same number on another channel is another recipient.
        let elsewhere = pending(.duress, to: "+1", on: "webhook", at: 8)
        #expect(ids(DeliveryOrder.due([alertA, elsewhere], health: [], at: 10)) == [2, 5])
    }

    /// An alert a pass may not send (queued after it began) still holds its recipient's
    /// follow-ups back: offered alone, the duress message would arrive before any alert.
    @Test mutating func anAlertLeftOutOfThePassStillHoldsItsFollowUpsBack() {
        let duress = pending(.duress, to: "+1", at: 0) // 1
        let alert = pending(.alert, to: "+1", at: 5) // 2
        let other = pending(.lowBattery, to: "+2", at: 6) // 3
        #expect(ids(DeliveryOrder.due([duress, alert, other], health: [], at: 10, eligible: { $0.message.id != 2 })) == [3])
    }

    @Test mutating func aFailingChannelOffersOneProbeTheMessageWaitingLongest() {
        let first = pending(.alert, to: "+1", lastTried: 20) // 1
        let second = pending(.alert, to: "+2", lastTried: 10) // 2
        let followUp = pending(.allClear, to: "+3", lastTried: 15) // 3
        let other = pending(.alert, to: "+4", on: "webhook") // 4
        let failing = ChannelHealth(channel: "sms", failingSince: 0, nextProbeAt: 30, failures: 3, isDown: false)
        #expect(ids(DeliveryOrder.due([first, second, followUp, other], health: [failing], at: 29)) == [4], "the probe is not due yet")
        #expect(ids(DeliveryOrder.due([first, second, followUp, other], health: [failing], at: 30)) == [2, 4], "tried longest ago")
        #expect(ids(DeliveryOrder.due([followUp], health: [failing], at: 30)) == [3], "with no alert waiting, the follow-up is the probe")
        // Never tried, due at the same time: an alert before a follow-up.
        let fresh = pending(.locationUpdate, to: "+3") // 5
        let freshAlert = pending(.alert, to: "+5") // 6
        #expect(ids(DeliveryOrder.due([fresh, freshAlert], health: [failing], at: 30)) == [6])
        // A follow-up queued after an alert's last try waits behind it.
        let queuedLater = pending(.locationUpdate, to: "+3", at: 25) // 7
        #expect(ids(DeliveryOrder.due([first, queuedLater], health: [failing], at: 30)) == [1])
    }

    /// Anna's alert keeps failing on a channel that works for Ben (a relay whose route to her is
    /// dead): each failure marks the channel failing again. The probe goes round, so Ben's
    /// follow-ups are not held behind her alert for the whole emergency.
    @Test mutating func oneRecipientsFailingAlertDoesNotHoldTheOthersFollowUps() {
        let annasAlert = pending(.alert, to: "+anna", lastTried: 40, attempts: 4) // 1
        let bensUpdate = pending(.locationUpdate, to: "+ben", lastTried: 25, attempts: 1) // 2
        let failing = ChannelHealth(channel: "sms", failingSince: 0, nextProbeAt: 45, failures: 4, isDown: false)
        #expect(ids(DeliveryOrder.due([annasAlert, bensUpdate], health: [failing], at: 45)) == [2])
        // And the other way round: Ben's route dead, a fresh update of his every minute (no
        // tries yet, but queued after her alert's last try) does not keep hers from a turn.
        let bensNewest = pending(.locationUpdate, to: "+ben", at: 42) // 3
        #expect(ids(DeliveryOrder.due([annasAlert, bensNewest], health: [failing], at: 45)) == [1])
    }

    @Test mutating func nextDueIsTheProbeTimeAndIgnoresBlockedFollowUps() {
        let alert = pending(.alert, to: "+1", at: 5)
        let update = pending(.locationUpdate, to: "+1", at: 1)
        let failing = ChannelHealth(channel: "sms", failingSince: 0, nextProbeAt: 45, failures: 1, isDown: true)
        #expect(DeliveryOrder.nextDue([alert, update], health: []) == 5, "the update at 1 waits for the alert")
        #expect(DeliveryOrder.nextDue([alert, update], health: [failing]) == 45)
        #expect(DeliveryOrder.nextDue([], health: [failing]) == nil, "nothing waits")
    }
}
