import CFusion

/// Vertical velocity (m/s, up positive) from the AHRS's earth-frame acceleration z (g), with
/// drift control: a leaky integrator v ← v·e^(−dt/τ) + g₀·a_z·dt, i.e. the integral through a
/// first-order high-pass of corner 1/(2πτ). A constant bias b settles at g₀·b·τ rather than
/// growing. τ = 1 s (the default) keeps 79 % of a 0.5 s free fall's speed and holds a 0.01 g
/// bias to 0.1 m/s.
public struct VerticalVelocityEstimator: Sendable {
    var state = cfusion_vertical_velocity()

    public init(timeConstant: Float = 1) {
        cfusion_vertical_velocity_init(&state, timeConstant)
    }

    public var timeConstant: Float { state.tau_s }
    public var velocity: Float { state.velocity }

    /// Adds one sample of earth-frame z acceleration (g, gravity removed) over `samplePeriod`
    /// seconds; returns the velocity.
    public mutating func push(earthAccelerationZ: Float, samplePeriod: Float) -> Float {
        cfusion_vertical_velocity_push(&state, earthAccelerationZ, samplePeriod)
    }
}
