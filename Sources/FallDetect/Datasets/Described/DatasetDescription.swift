/// A folder of recordings described well enough to benchmark on: which files, whose they are,
/// how their columns read, how their axes sit on the body, and where the falls are.
///
/// It is plain data: `DescribedDataset` lists and loads the files, `detectord` reads it from TOML
/// (docs/dataset-description.md).
public struct DatasetDescription: Sendable {
    /// What the dataset is called in reports.
    public var name: String
    public var kind: DatasetKind
    /// The recordings, relative to the dataset's root: `recordings/*.csv`, `SisFall_dataset/*/*.txt`.
    public var files: String
    /// A regular expression with one capture group, matched against each file's path relative to
    /// the root; the group is the subject. Nil takes the file's folder name.
    public var subjectPattern: String?
    /// Columns, units, scales and sample rate or time column. Its `axisMapping` is ignored: the
    /// axes come from `axes`; its `label` from `labels`.
    public var format: CSVFormat
    public var axes: DatasetAxes
    /// Where the per-sample labels are, if anywhere.
    public var labels: DatasetLabelSource?
    /// The label value that means "no label here" (HAPT: -1), if the dataset has one.
    public var unlabelledValue: Int16?
    /// The name of each label value, for reports: 1 → "walking".
    public var labelNames: [Int16: String]
    public var falls: DatasetFallSource
    /// When set, each recording's samples from this many seconds after its last labelled one
    /// are the device being taken off (a removal tail), counted apart from daily activity.
    public var removalMargin: Double?
    /// The file the description was read from, for messages; nil when built in code.
    public var source: String?

    public init(
        name: String, kind: DatasetKind, files: String, subjectPattern: String? = nil, format: CSVFormat, axes: DatasetAxes,
        labels: DatasetLabelSource? = nil, unlabelledValue: Int16? = nil, labelNames: [Int16: String] = [:], falls: DatasetFallSource,
        removalMargin: Double? = nil, source: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.files = files
        self.subjectPattern = subjectPattern
        self.format = format
        self.axes = axes
        self.labels = labels
        self.unlabelledValue = unlabelledValue
        self.labelNames = labelNames
        self.falls = falls
        self.removalMargin = removalMargin
        self.source = source
    }
}
