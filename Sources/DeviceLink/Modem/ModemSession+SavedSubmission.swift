/// A submission as the outbox keeps it (`ChannelProgress`): the first line holds each part's state
/// (`u` unsent, `a41` awaiting the report for ref 41, `A41` the same with no more resends, `d41`
/// delivered, `f41:70` failed with status 0x70), the rest is the text that was split, so the
/// parts come out the same after a restart.
/// Plain text, not JSON: DeviceLink's modem code needs nothing of Foundation.
/// The prefix names how the text was split (`TextModeSMS.Layout`), and it is split that way again
/// so its parts keep their bounds: "sms-parts3" keeps words whole, "sms-parts2" (written before)
/// has a charset per part, "sms-parts" (before that) one charset for all.
extension ModemSession.Submission {
    static let prefixes: [(String, TextModeSMS.Layout)] = [("sms-parts3", .wholeWords), ("sms-parts2", .charsetPerPart), ("sms-parts", .oneCharset)]

    var saved: String {
        let states = parts.map { part -> String in
            switch part {
            case .unsent: "u"
            case .awaitingReport(let reference, _, let final): "\(final ? "A" : "a")\(reference)"
            case .delivered(let reference): "d\(reference)"
            case .failed(let reference, let status): "f\(reference):\(status)"
            }
        }
        let prefix = Self.prefixes.first { $0.1 == layout }?.0 ?? "sms-parts3"
        return ([prefix] + states).joined(separator: " ") + "\n" + text
    }

    /// Reads `saved` back; a part awaiting its report waits from `now` (the modem may have
    /// restarted too, and a report that came while the daemon was down is lost). Nil for anything
    /// this version did not write.
    init?(saved: String, now: Double) {
        guard let lineEnd = saved.firstIndex(of: "\n") else { return nil }
        let fields = saved[..<lineEnd].split(separator: " ")
        guard let prefix = fields.first, let layout = Self.prefixes.first(where: { $0.0 == prefix })?.1, fields.count > 1 else { return nil }
        var parts: [ModemSession.PartState] = []
        for field in fields.dropFirst() {
            let tag = field.first
            let numbers = field.dropFirst().split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            switch (tag, numbers.count) {
            case ("u", _) where field.count == 1: parts.append(.unsent)
            case ("a", 1), ("A", 1):
                guard let reference = numbers[0] else { return nil }
                parts.append(.awaitingReport(reference: reference, since: now, final: tag == "A"))
            case ("d", 1): guard let reference = numbers[0] else { return nil }; parts.append(.delivered(reference: reference))
            case ("f", 2):
                guard let reference = numbers[0], let status = numbers[1] else { return nil }
                parts.append(.failed(reference: reference, status: status))
            default: return nil
            }
        }
        self.init(text: String(saved[saved.index(after: lineEnd)...]), parts: parts, layout: layout)
    }
}
