/// One of SisFall's 34 activities: 19 activities of daily living (D01–D19) and 15 falls (F01–F15),
/// with the protocol from the authors' `SisFall_dataset/Readme.txt`.
public struct SisFallActivity: Sendable, Hashable, CustomStringConvertible {
    /// "D01"…"D19" or "F01"…"F15".
    public let code: String
    /// What the subject did, in the Readme's words.
    public let summary: String
    /// Repetitions per subject in the protocol (1 for the long walks and jogs, else 5).
    public let trials: Int
    /// Nominal length of one trial.
    public let durationSeconds: Int

    public init(code: String, summary: String, trials: Int, durationSeconds: Int) {
        self.code = code
        self.summary = summary
        self.trials = trials
        self.durationSeconds = durationSeconds
    }

    public var isFall: Bool { code.hasPrefix("F") }

    /// 1…19 for ADL, 1…15 for falls.
    public var number: Int { Int(code.dropFirst()) ?? 0 }

    public var description: String { "\(code) \(summary)" }

    /// The Readme says elderly subjects skipped these on a physician's advice; only SE06 performed falls.
    public static let skippedByElderly: Set<String> = ["D06", "D13", "D18", "D19"]

    /// Activities that a subject is expected to have performed, per the Readme.
    public static func expected(forSubject subject: String) -> [SisFallActivity] {
        guard subject.hasPrefix("SE") else { return all }
        return all.filter { a in
            !skippedByElderly.contains(a.code) && (!a.isFall || subject == "SE06")
        }
    }

    /// The activity with this code, or nil.
    public static func named(_ code: String) -> SisFallActivity? { byCode[code] }

    private static let byCode: [String: SisFallActivity] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The table of `SisFall_dataset/Readme.txt`, in its order.
    public static let all: [SisFallActivity] = [
        .init(code: "D01", summary: "Walking slowly", trials: 1, durationSeconds: 100),
        .init(code: "D02", summary: "Walking quickly", trials: 1, durationSeconds: 100),
        .init(code: "D03", summary: "Jogging slowly", trials: 1, durationSeconds: 100),
        .init(code: "D04", summary: "Jogging quickly", trials: 1, durationSeconds: 100),
        .init(code: "D05", summary: "Walking upstairs and downstairs slowly", trials: 5, durationSeconds: 25),
        .init(code: "D06", summary: "Walking upstairs and downstairs quickly", trials: 5, durationSeconds: 25),
        .init(code: "D07", summary: "Slowly sit in a half height chair, wait a moment, and up slowly", trials: 5, durationSeconds: 12),
        .init(code: "D08", summary: "Quickly sit in a half height chair, wait a moment, and up quickly", trials: 5, durationSeconds: 12),
        .init(code: "D09", summary: "Slowly sit in a low height chair, wait a moment, and up slowly", trials: 5, durationSeconds: 12),
        .init(code: "D10", summary: "Quickly sit in a low height chair, wait a moment, and up quickly", trials: 5, durationSeconds: 12),
        .init(code: "D11", summary: "Sitting a moment, trying to get up, and collapse into a chair", trials: 5, durationSeconds: 12),
        .init(code: "D12", summary: "Sitting a moment, lying slowly, wait a moment, and sit again", trials: 5, durationSeconds: 12),
        .init(code: "D13", summary: "Sitting a moment, lying quickly, wait a moment, and sit again", trials: 5, durationSeconds: 12),
        .init(code: "D14", summary: "Being on one's back change to lateral position, wait a moment, and change to one's back", trials: 5, durationSeconds: 12),
        .init(code: "D15", summary: "Standing, slowly bending at knees, and getting up", trials: 5, durationSeconds: 12),
        .init(code: "D16", summary: "Standing, slowly bending without bending knees, and getting up", trials: 5, durationSeconds: 12),
        .init(code: "D17", summary: "Standing, get into a car, remain seated and get out of the car", trials: 5, durationSeconds: 25),
        .init(code: "D18", summary: "Stumble while walking", trials: 5, durationSeconds: 12),
        .init(code: "D19", summary: "Gently jump without falling (trying to reach a high object)", trials: 5, durationSeconds: 12),
        .init(code: "F01", summary: "Fall forward while walking caused by a slip", trials: 5, durationSeconds: 15),
        .init(code: "F02", summary: "Fall backward while walking caused by a slip", trials: 5, durationSeconds: 15),
        .init(code: "F03", summary: "Lateral fall while walking caused by a slip", trials: 5, durationSeconds: 15),
        .init(code: "F04", summary: "Fall forward while walking caused by a trip", trials: 5, durationSeconds: 15),
        .init(code: "F05", summary: "Fall forward while jogging caused by a trip", trials: 5, durationSeconds: 15),
        .init(code: "F06", summary: "Vertical fall while walking caused by fainting", trials: 5, durationSeconds: 15),
        .init(code: "F07", summary: "Fall while walking, with use of hands in a table to dampen fall, caused by fainting", trials: 5, durationSeconds: 15),
        .init(code: "F08", summary: "Fall forward when trying to get up", trials: 5, durationSeconds: 15),
        .init(code: "F09", summary: "Lateral fall when trying to get up", trials: 5, durationSeconds: 15),
        .init(code: "F10", summary: "Fall forward when trying to sit down", trials: 5, durationSeconds: 15),
        .init(code: "F11", summary: "Fall backward when trying to sit down", trials: 5, durationSeconds: 15),
        .init(code: "F12", summary: "Lateral fall when trying to sit down", trials: 5, durationSeconds: 15),
        .init(code: "F13", summary: "Fall forward while sitting, caused by fainting or falling asleep", trials: 5, durationSeconds: 15),
        .init(code: "F14", summary: "Fall backward while sitting, caused by fainting or falling asleep", trials: 5, durationSeconds: 15),
        .init(code: "F15", summary: "Lateral fall while sitting, caused by fainting or falling asleep", trials: 5, durationSeconds: 15),
    ]
}
