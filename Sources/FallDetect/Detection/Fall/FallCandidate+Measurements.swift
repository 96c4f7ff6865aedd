/// The candidate's measurements by name, in their own units (no logarithms): for logs, reports
/// and anyone studying the judges outside the program.
extension FallCandidate {
    /// Names in the order of `measurementValues`, unit last: `peak_g`, `vertical_velocity_mps`, …
    public static let measurementKeys = [
        "peak_g", "saturated", "min_before_g", "low_seconds", "tilt_before_deg", "tilt_after_deg", "max_tilt_after_deg",
        "tilt_at_decision_deg", "vertical_velocity_mps", "peak_rate_dps", "motion_after_g", "activity_before_g", "attitude_change_deg",
        "peak_rate_after_dps", "min_tilt_before_deg",
    ]

    public var measurementValues: [Float] {
        [
            peakAcceleration, saturated ? 1 : 0, minimumAccelerationBefore, lowAccelerationSeconds, tiltBefore, tiltAfter, maximumTiltAfter,
            tiltAtDecision, minimumVerticalVelocity, peakAngularRate, motionAfter, activityBefore, attitudeChange, peakAngularRateAfter,
            minimumTiltBefore,
        ]
    }
}
