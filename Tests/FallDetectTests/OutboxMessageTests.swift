import Foundation
import Testing
@testable import FallDetect

/// The sequence number read back from message keys: the payload's `sequence` and the all clear
/// that follows a late alert both depend on it.
@Suite struct OutboxMessageTests {
    @Test func readsTheSequenceFromKeysTheStoreMakes() throws {
        let dir = try SharedData.temporaryDirectory("outbox-message")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try WorkflowStore(path: dir + "/detectord.sqlite")
        // Recipients with dashes of their own (a webhook name, an e-mail address) must not shift it.
        for (sequence, recipient) in [(1, "+447700900456"), (42, "night-shift-desk"), (1_234_567, "ada-l@example.org")] {
            let key = try store.transaction { try $0.messageKey(sequence, "pager", recipient) }
            #expect(OutboxMessage.sequence(inKey: key) == sequence, "\(key)")
        }
    }

    @Test func refusesKeysOfAnotherShape() {
        for key in ["", "msg", "msg-", "msg-x-pager-anna", "message-3-pager-anna", "msg--pager-anna", "3-pager-anna"] {
            #expect(OutboxMessage.sequence(inKey: key) == nil, "\(key)")
        }
        // Keys from before the tag was added still read.
        #expect(OutboxMessage.sequence(inKey: "msg-7-sms-+447700900456") == 7)
    }
}
