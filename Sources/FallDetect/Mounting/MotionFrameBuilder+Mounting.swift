extension MotionFrameBuilder {
    /// Adds one sensor-frame sample, turned into the body frame by `mounting` (which it updates).
    /// When the estimate changes, the attitude turns with it, so tilt is right at once instead of
    /// after the AHRS has pulled it over in a few seconds of false posture change.
    public mutating func push(_ sample: IMUSample, mounting: inout MountingEstimator) -> MotionFrame {
        let before = mounting.rotation
        let changes = mounting.changes
        let body = mounting.push(sample)
        if mounting.changes != changes {
            // v_old = Dᵀ v_new with D = R_new · R_oldᵀ, so body_new → earth is q ⊗ quat(Dᵀ).
            let turn = before.composed(after: mounting.rotation.transposed)
            ahrs.quaternion = Self.product(ahrs.quaternion, turn.quaternion)
        }
        return push(body, sensor: sample)
    }

    /// The AHRS's soft restart on a clipped gyroscope, judged on the sensor's own axes: its
    /// built-in check reads the body-frame axes, which after an arbitrary rotation would clip at
    /// other moments in other mountings. The built-in check is turned off (settings changes turn
    /// it on again, so every update); the threshold it keeps is 98 % of the gyroscope's range.
    mutating func restartOnGyroscopeOverrange(sensorAngularRate w: SIMD3<Float>) {
        ahrs.state.overrange_enabled = 0
        let limit = ahrs.state.overrange_threshold
        guard limit > 0, abs(w.x) > limit || abs(w.y) > limit || abs(w.z) > limit else { return }
        let q = ahrs.quaternion
        ahrs.restart()
        ahrs.quaternion = q
        ahrs.state.overrange_recovery = 1
    }

    /// Hamilton product a ⊗ b: first b, then a.
    static func product(_ a: Quaternion, _ b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }
}
