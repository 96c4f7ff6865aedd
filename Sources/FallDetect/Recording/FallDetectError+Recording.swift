extension FallDetectError.Code {
    /// A recording block of a type this reader does not know (from a newer minor version); it was
    /// skipped intact, so this is a notice rather than damage.
    public static let unknownBlock = FallDetectError.Code(rawValue: "unknown-block")
}
