extension FallDetectError {
    /// Throws `.invalidArgument` naming `field` unless `condition` holds: the one-line check that
    /// parameter types use in `validate()`.
    static func require(_ condition: Bool, _ field: String, _ why: @autoclosure () -> String) throws(FallDetectError) {
        if !condition { throw FallDetectError(.invalidArgument, why(), field: field) }
    }
}

extension FallDetectError {
    /// Throws `.invalidArgument` naming `field` unless `value` is finite and above 0; `unit`
    /// follows the value in the message (" s", "°").
    static func requirePositive<T: BinaryFloatingPoint>(_ value: T, _ field: String, unit: String = "") throws(FallDetectError) {
        try require(value.isFinite && value > 0, field, "must be positive, got \(value)\(unit)")
    }

    /// Throws `.invalidArgument` naming `field` unless `value` is finite and not below 0.
    static func requireNonNegative<T: BinaryFloatingPoint>(_ value: T, _ field: String, unit: String = "") throws(FallDetectError) {
        try require(value.isFinite && value >= 0, field, "must not be negative, got \(value)\(unit)")
    }
}
