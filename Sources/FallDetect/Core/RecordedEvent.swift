/// Something that happened during a recording besides sensor data: a ground-truth label, a button
/// press, a detection or a note. Events keep recordings explainable after the fact.
public struct RecordedEvent: Sendable, Equatable {
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Ground truth from this instant on: `value` 0 = background, 1 = alert (pre-fall),
        /// 2 = fall; the same codes as SisFall's enhanced labels.
        public static let label = Kind(rawValue: 1)
        /// What the wearer is doing from this instant on; `text` names it ("walking", "bike-crash").
        public static let activity = Kind(rawValue: 2)
        /// A keychain or on-device button; `value` counts presses.
        public static let button = Kind(rawValue: 3)
        /// A detector fired; `text` names it.
        public static let detection = Kind(rawValue: 4)
        /// Free text.
        public static let note = Kind(rawValue: 5)
        /// The sensor's stream broke here: `value` samples are estimated lost before this
        /// instant, `text` says why ("FIFO overflow", "sensor unplugged"). Nothing was stitched.
        public static let gap = Kind(rawValue: 6)

        public var description: String {
            switch self {
            case .label: "label"
            case .activity: "activity"
            case .button: "button"
            case .detection: "detection"
            case .note: "note"
            case .gap: "gap"
            default: "kind-\(rawValue)"
            }
        }
    }

    public var timestampNanoseconds: Int64
    public var kind: Kind
    public var value: Int32
    public var text: String

    public init(timestampNanoseconds: Int64, kind: Kind, value: Int32 = 0, text: String = "") {
        self.timestampNanoseconds = timestampNanoseconds
        self.kind = kind
        self.value = value
        self.text = text
    }
}
