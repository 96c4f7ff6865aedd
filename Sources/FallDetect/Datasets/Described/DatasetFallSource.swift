/// Where a dataset says its falls are.
public enum DatasetFallSource: Sendable, Hashable {
    /// Samples whose label is one of `values` are the fall (SisFall_enhanced's 2).
    case labels(values: Set<Int16>)
    /// A CSV file beside the recordings, relative to the root, with a row `file,start,end` per
    /// fall: the recording's path relative to the root (or its name), and the fall's start and
    /// end in seconds from the recording's first sample.
    case spanFile(String)
    /// No falls: every detection is a false alarm.
    case none
}
