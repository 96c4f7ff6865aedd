/// Where a recording's per-sample labels are.
public enum DatasetLabelSource: Sendable, Hashable {
    /// A column of the recording itself (HAPT's `label`).
    case column(CSVFormat.Column)
    /// A parallel file with one whole number per line, one line per sample, found by a path
    /// template (SisFall_enhanced's `{parent}/{file}`).
    case file(PathTemplate)
}
