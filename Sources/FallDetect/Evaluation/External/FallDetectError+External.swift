extension FallDetectError.Code {
    /// A detector in another process could not be started, died, hung or broke the protocol
    /// (the error's `path` is its command, `line` the line of its output).
    public static let externalDetector = Self(rawValue: "external-detector")
}
