/// A submission as the outbox keeps it (`ChannelProgress`): the first line holds each part's state
/// (`u` unsent, `a41` awaiting the report for ref 41, `A41` the same with no more resends, `d41`
/// delivered, `f41:70` failed with status 0x70), the rest is the text that was split, so the
/// parts come out the same after a restart.
/// Plain text, not JSON: DeviceLink's modem code needs nothing of Foundation.
/// "sms-parts2": parts with a charset each (`TextModeSMS`); "sms-parts", written before, split the
/// text with one charset for all, and is split that way again so its parts keep their bounds.
extension ModemSession.Submission {
    static let savedPrefix = "sms-parts2"
    static let legacyPrefix = "sms-parts"

    var saved: String {
        let states = parts.map { part -> String in
            switch part {
            case .unsent: "u"
            case .awaitingReport(let reference, _, let final): "\(final ? "A" : "a")\(reference)"
            case .delivered(let reference): "d\(reference)"
            case .failed(let reference, let status): "f\(reference):\(status)"
            }
        }
        return ([oneCharset ? Self.legacyPrefix : Self.savedPrefix] + states).joined(separator: " ") + "\n" + text
    }

    /// Reads `saved` back; a part awaiting its report waits from `now` (the modem may have
    /// restarted too, and a report that came while the daemon was down is lost). Nil for anything
    /// this version did not write.
    init?(saved: String, now: Double) {
        guard let lineEnd = saved.firstIndex(of: "\n") else { return nil }
        let fields = saved[..<lineEnd].split(separator: " ")
        guard let prefix = fields.first, prefix == Substring(Self.savedPrefix) || prefix == Substring(Self.legacyPrefix), fields.count > 1 else { return nil }
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
        self.init(text: String(saved[saved.index(after: lineEnd)...]), parts: parts, oneCharset: prefix == Substring(Self.legacyPrefix))
    }
}
