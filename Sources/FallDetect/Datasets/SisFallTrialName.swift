/// A SisFall trial's name, `<CODE>_<SUBJECT>_R<NN>` such as `F05_SA12_R03`, parsed.
///
/// The subject and its group come from the name, never from the folder: the archive's folder
/// `SA15/` holds files named `D17_SE15_*`, which are an elderly subject's trials.
public struct SisFallTrialName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// SisFall's two age groups, named by the subject code's prefix.
    public enum Group: String, Sendable, Hashable, CaseIterable {
        /// "SA": adults 19–30 years old.
        case young = "SA"
        /// "SE": people 60–75 years old.
        case elderly = "SE"
    }

    /// "D01"…"D19" or "F01"…"F15".
    public let activityCode: String
    /// "SA01", "SE15", …
    public let subject: String
    public let group: Group
    /// The number in the subject code (12 for SA12).
    public let subjectNumber: Int
    /// 1-based repetition (3 for R03).
    public let repetition: Int

    public var isFall: Bool { activityCode.hasPrefix("F") }
    public var activity: SisFallActivity? { SisFallActivity.named(activityCode) }

    /// `F05_SA12_R03`.
    public var description: String {
        let r = repetition < 10 ? "0\(repetition)" : "\(repetition)"
        return "\(activityCode)_\(subject)_R\(r)"
    }

    /// Parses a name with or without a directory and a `.txt` extension. `path` goes into errors.
    public init(parsing text: String, path: String? = nil) throws {
        var name = Substring(text)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if name.hasSuffix(".txt") { name = name.dropLast(4) }
        func bad(_ why: String) -> FallDetectError {
            FallDetectError(.badFileName, "'\(name)' is not a SisFall trial name (<CODE>_<SUBJECT>_R<NN>): \(why)",
                path: path ?? text)
        }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw bad("expected three parts separated by '_'") }
        let code = String(parts[0])
        guard SisFallActivity.named(code) != nil else {
            throw bad("unknown activity code '\(code)' (D01–D19, F01–F15)")
        }
        let subject = parts[1]
        guard subject.utf8.count == 4, let group = Group(rawValue: String(subject.prefix(2))),
            let number = Self.digits(subject.dropFirst(2)), number >= 1
        else { throw bad("subject '\(subject)' is not SA<NN> or SE<NN>") }
        let rep = parts[2]
        guard rep.utf8.count == 3, rep.hasPrefix("R"), let repetition = Self.digits(rep.dropFirst()), repetition >= 1
        else { throw bad("repetition '\(rep)' is not R<NN> with NN >= 01") }
        self.activityCode = code
        self.subject = String(subject)
        self.group = group
        self.subjectNumber = number
        self.repetition = repetition
    }

    /// Only ASCII digits: `Int("+5")` would accept a sign.
    private static func digits(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(s)
    }

    /// Subject, then activity (ADL before falls), then repetition: the order of the archive's folders.
    public static func < (a: SisFallTrialName, b: SisFallTrialName) -> Bool {
        (a.subject, a.activityCode, a.repetition) < (b.subject, b.activityCode, b.repetition)
    }
}
