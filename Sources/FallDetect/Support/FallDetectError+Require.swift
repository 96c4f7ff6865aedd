extension FallDetectError {
    /// Throws `.invalidArgument` naming `field` unless `condition` holds: the one-line check that
    /// parameter types use in `validate()`.
    static func require(_ condition: Bool, _ field: String, _ why: @autoclosure () -> String) throws(FallDetectError) {
        if !condition { throw FallDetectError(.invalidArgument, why(), field: field) }
    }
}
