/// One dataset of a bench run and every detector's result on it. A run over several datasets
/// is a list of these.
public struct ReportDataset: Sendable, Hashable, Codable {
    public var name: String
    public var kind: ReportDatasetKind
    /// Where it was read from.
    public var root: String
    /// One line on what was run: size, protocol, parameters.
    public var summary: String
    public var detectors: [ReportDetector]
    /// Published points to draw beside the ROC curves.
    public var references: [BenchPlot.PublishedPoint]

    public init(name: String, kind: ReportDatasetKind, root: String, summary: String, detectors: [ReportDetector], references: [BenchPlot.PublishedPoint] = []) {
        self.name = name
        self.kind = kind
        self.root = root
        self.summary = summary
        self.detectors = detectors
        self.references = references
    }
}
