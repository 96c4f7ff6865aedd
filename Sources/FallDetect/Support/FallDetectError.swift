#if canImport(Glibc)
import Glibc
#endif

/// An error with the context a person needs to act on it: which file, which line, which field,
/// and the system's errno where one was involved.
public struct FallDetectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as an extensible set of named codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A file could not be opened, read, written or listed.
        public static let io = Code(rawValue: "io")
        /// A text row or field is not what the format says.
        public static let malformedRow = Code(rawValue: "malformed-row")
        /// A file name does not follow the dataset's naming scheme.
        public static let badFileName = Code(rawValue: "bad-file-name")
        /// A recording's header is missing, foreign or of an unknown version.
        public static let badHeader = Code(rawValue: "bad-header")
        /// A block failed its checksum or its structure check.
        public static let corruptBlock = Code(rawValue: "corrupt-block")
        /// The file ends in the middle of a block.
        public static let truncated = Code(rawValue: "truncated")
        /// Labels and samples disagree in count.
        public static let labelMismatch = Code(rawValue: "label-mismatch")
        /// A setting or argument is out of range or contradictory.
        public static let invalidArgument = Code(rawValue: "invalid-argument")
        /// Nothing usable was found where data was expected.
        public static let noData = Code(rawValue: "no-data")
        /// Taken but not yet done: kept and tried again (an SOS while the disk is full).
        public static let deferred = Code(rawValue: "deferred")

        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String
    public var path: String?
    /// 1-based line in a text file, or a block number in a binary one (see `message`).
    public var line: Int?
    public var field: String?
    public var errno: Int32?

    public init(
        _ code: Code, _ message: String, path: String? = nil, line: Int? = nil,
        field: String? = nil, errno: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.field = field
        self.errno = errno
    }

    /// An I/O failure from the last system call, with its errno and the system's text for it.
    public static func io(_ what: String, path: String, errno: Int32) -> FallDetectError {
        FallDetectError(.io, "\(what): \(String(cString: strerror(errno)))", path: path, errno: errno)
    }

    /// `path:line: field: message`, the form editors and terminals link to.
    public var description: String {
        var location = path ?? ""
        if let line { location += location.isEmpty ? "line \(line)" : ":\(line)" }
        var text = location.isEmpty ? "" : location + ": "
        if let field { text += "\(field): " }
        text += message
        if let errno { text += " (errno \(errno))" }
        return text
    }
}
