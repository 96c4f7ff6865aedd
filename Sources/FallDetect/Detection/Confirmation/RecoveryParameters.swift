/// The recovery check after a fall detection: the fall model's last phase. A wearer who is
/// upright again (sitting or standing) within the window can answer for themselves, so the alert
/// does not go out to contacts by itself; one who stays down, still or struggling, gets the alert.
/// Lying down on a bed and sitting up again, the commonest false alarm, ends this way.
public struct RecoveryParameters: Sendable, Hashable {
    /// Seconds after the detection in which getting up withdraws it.
    public var windowSeconds: Float
    /// Upright when the trunk is within this many degrees of vertical.
    public var uprightTilt: Float
    /// Seconds upright, without a break, that mean the wearer got up.
    public var uprightSeconds: Float

    /// The defaults are the setting that 9 of 10 folds chose on the development subjects in an
    /// earlier round (`detectord bench --protocol online --train`). The folds now choose 35° for
    /// 1 s; the stricter default stays, because a recovery now withdraws the fall's countdown:
    /// a faller who sits up for a moment, or ends half-sitting, must keep the alert. The window is
    /// a product choice, well inside the alert's countdown.
    public init(windowSeconds: Float = 10, uprightTilt: Float = 30, uprightSeconds: Float = 2) {
        self.windowSeconds = windowSeconds
        self.uprightTilt = uprightTilt
        self.uprightSeconds = uprightSeconds
    }

    /// The settings the bench chooses among, per fold, on the training subjects: how upright and
    /// for how long. The window stays at its default.
    public static let grid: [RecoveryParameters] = [30, 35, 45].flatMap { tilt in
        [1, 2, 3].map { seconds in RecoveryParameters(uprightTilt: tilt, uprightSeconds: seconds) }
    }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.requirePositive(uprightSeconds, "uprightSeconds")
        try FallDetectError.require(
            windowSeconds.isFinite && windowSeconds >= uprightSeconds, "windowSeconds",
            "must be at least uprightSeconds (\(uprightSeconds) s), got \(windowSeconds)")
        try FallDetectError.require(
            uprightTilt.isFinite && uprightTilt > 0 && uprightTilt < 90, "uprightTilt", "must lie in (0, 90)°, got \(uprightTilt)")
    }
}
