/// How a dataset's recordings are scored.
public enum DatasetKind: Sendable, Hashable {
    /// Stretches of someone's day: detections are placed against the labels, and false alarms
    /// are counted per hour.
    case continuous
    /// One scripted activity per file, as SisFall's: a file whose name (without its extension)
    /// matches `fallTrials`, a regular expression, is a fall trial, any other an ADL trial; SE, SP
    /// and false alarms per hour of ADL.
    case trials(fallTrials: String)
}
