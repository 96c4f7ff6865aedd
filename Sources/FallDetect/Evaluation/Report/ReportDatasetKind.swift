/// How a dataset is scored: trials each judged fall or not (SE, SP), or continuous recordings of
/// daily life where every detection outside a labelled fall is a false alarm (per hour).
public enum ReportDatasetKind: String, Sendable, Hashable, Codable {
    case trials
    case continuous
}
