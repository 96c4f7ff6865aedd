/// The crash detector's thresholds, each with its unit. Defaults follow the published figures where
/// there are any (WreckWatch's 4 g impact threshold, Liberty Rider's 20 km/h arming speed); the
/// rest are this project's choices, said to be so, and tuned on synthetic traces only (no public
/// crash recordings exist). See docs/crash-detection.md.
public struct CrashDetectorParameters: Sendable, Hashable {
    // MARK: Impact

    /// |a| at or above which an impact starts a confirmation, g. Default 4 g: WreckWatch (White et
    /// al. 2011) found normal driving, hard braking included, stays below 4 g on a phone, while
    /// real crashes reach 20–500 g.
    public var impactThreshold: Float
    /// The accelerometer's full scale, g. A saturated reading counts as at least this much, since
    /// the true |a| was higher. Default 16 g (the ADXL345 and the synthetic IMU).
    public var accelerometerFullScale: Float
    /// A clipped excursion lasting at least this long counts as an impact even when the clipped
    /// peak stays below `impactThreshold` (a threshold above full scale), seconds. Default 0.03 s:
    /// a crash pulse lasts 40–150 ms, a road shock a few ms.
    public var saturatedImpactSeconds: Float
    /// A clipped excursion whose impulse ∫(|a| − 1 g)dt reaches this counts as an impact too, m/s.
    /// The clipped |a| makes it a lower bound of the true delta-v. Default 2 m/s (a 6 g pothole
    /// jolt of 30 ms gives about 1 m/s, a 50 km/h crash 14 m/s).
    public var impactDeltaV: Float

    // MARK: Arming

    /// Trusted GNSS ground speed at or above which the detector is armed, m/s. Default 20 km/h
    /// (5.56 m/s), Liberty Rider's published arming speed.
    public var armingSpeed: Double
    /// How long the arming holds after the last fix at or above `armingSpeed`, seconds. It bridges
    /// 1 Hz fixes and the braking just before a crash. Default 5 s (our choice).
    public var armingHoldSeconds: Double
    /// Without a trusted speed for this long, GNSS counts as lost and the stillness fallback
    /// applies, seconds. Default 3 s (three missed 1 Hz fixes, `GNSSHealth`'s good age).
    public var gnssTimeoutSeconds: Double

    // MARK: Confirmation by speed

    /// After the impact, a stop or a drop must show within this, seconds. Default 10 s: a vehicle
    /// stops within a few seconds of a crash (a sliding rider at 0.5 g from 60 km/h: 3.4 s) and
    /// 1 Hz fixes add about a second.
    public var confirmationWindowSeconds: Double
    /// A trusted speed at or below this after the impact is a stop, m/s. Default 1.5 m/s
    /// (5.4 km/h, walking pace: a rider who gets up and walks is still stopped).
    public var stopSpeed: Double
    /// A trusted speed that fell by at least this fraction of the speed before the impact also
    /// confirms, 0…1. Default 0.7 (50 km/h down to 15 km/h: a car rolling on after a crash).
    public var speedDropFraction: Double
    /// Fixes this soon after the impact may still carry the speed from before it (receivers
    /// smooth speed and report late), so they cannot cancel, seconds. Default 2 s.
    public var speedLagSeconds: Double

    // MARK: Keeps moving normally (cancel)

    /// A fix at `armingSpeed` or faster cancels only when the speed is not still falling at this
    /// rate or faster since the previous fix, m/s²: a rider sliding on asphalt (5–7 m/s²) or a car
    /// rolling to a stop after a crash is not "moving on". Default 2 m/s² (0.2 g).
    public var slidingDeceleration: Double

    /// Steady riding motion for this long after the impact cancels it, seconds. Default 4 s.
    public var steadyMotionSeconds: Double
    /// Steady means the trunk stays within this of its angle before the impact, degrees. Default 15°.
    public var steadyTiltToleranceDegrees: Float
    /// … and the smoothed |ω| stays at or below this, °/s (no tumbling). Default 60 °/s.
    public var steadyMaximumAngularRate: Float
    /// … and the smoothed ||a| − 1 g| stays at or above this, g (the road still shakes the body:
    /// riding, not lying). Default 0.03 g.
    public var steadyMinimumActivity: Float

    // MARK: Stillness (fallback without GNSS)

    /// Without GNSS, an impact followed by this much stillness confirms, seconds. Default 10 s
    /// (telecare detectors wait 6–30 s; the alert countdown follows).
    public var fallbackStillSeconds: Double
    /// … after the body's attitude (the direction gravity is seen from, smoothed) turned by at least
    /// this from before the impact, degrees: the body was thrown or slumped. Without it a car's occupant, who sits as still as a lying body,
    /// would confirm any bump taken while GNSS is lost. Default 10° (a belted occupant slumps
    /// 15–30°, a thrown rider ends lying, 60–90°).
    public var fallbackTiltChangeDegrees: Float
    /// The stillness must complete within this after the impact, seconds. Default 30 s.
    public var fallbackWindowSeconds: Double
    /// Still means the smoothed ||a| − 1 g| at or below this, g. Default 0.05 g (road vibration
    /// on a bicycle is about 0.1 g, a lying body's breathing under 0.01 g).
    public var stillAcceleration: Float
    /// … and the smoothed |ω| at or below this, °/s. Default 15 °/s.
    public var stillAngularRate: Float
    /// Time constant of the smoothing of ||a| − 1 g| and |ω|, seconds. Default 0.5 s.
    public var motionSmoothingSeconds: Float
    /// The highest confidence a stillness-only detection can have, 0…1. Default 0.6: without
    /// speed, a device dropped and left lying looks the same.
    public var fallbackConfidence: Float

    public init(
        impactThreshold: Float = 4,
        accelerometerFullScale: Float = 16,
        saturatedImpactSeconds: Float = 0.03,
        impactDeltaV: Float = 2,
        armingSpeed: Double = 20 / 3.6,
        armingHoldSeconds: Double = 5,
        gnssTimeoutSeconds: Double = 3,
        confirmationWindowSeconds: Double = 10,
        stopSpeed: Double = 1.5,
        speedDropFraction: Double = 0.7,
        speedLagSeconds: Double = 2,
        slidingDeceleration: Double = 2,
        steadyMotionSeconds: Double = 4,
        steadyTiltToleranceDegrees: Float = 15,
        steadyMaximumAngularRate: Float = 60,
        steadyMinimumActivity: Float = 0.03,
        fallbackStillSeconds: Double = 10,
        fallbackTiltChangeDegrees: Float = 10,
        fallbackWindowSeconds: Double = 30,
        stillAcceleration: Float = 0.05,
        stillAngularRate: Float = 15,
        motionSmoothingSeconds: Float = 0.5,
        fallbackConfidence: Float = 0.6
    ) {
        self.impactThreshold = impactThreshold
        self.accelerometerFullScale = accelerometerFullScale
        self.saturatedImpactSeconds = saturatedImpactSeconds
        self.impactDeltaV = impactDeltaV
        self.armingSpeed = armingSpeed
        self.armingHoldSeconds = armingHoldSeconds
        self.gnssTimeoutSeconds = gnssTimeoutSeconds
        self.confirmationWindowSeconds = confirmationWindowSeconds
        self.stopSpeed = stopSpeed
        self.speedDropFraction = speedDropFraction
        self.speedLagSeconds = speedLagSeconds
        self.slidingDeceleration = slidingDeceleration
        self.steadyMotionSeconds = steadyMotionSeconds
        self.steadyTiltToleranceDegrees = steadyTiltToleranceDegrees
        self.steadyMaximumAngularRate = steadyMaximumAngularRate
        self.steadyMinimumActivity = steadyMinimumActivity
        self.fallbackStillSeconds = fallbackStillSeconds
        self.fallbackTiltChangeDegrees = fallbackTiltChangeDegrees
        self.fallbackWindowSeconds = fallbackWindowSeconds
        self.stillAcceleration = stillAcceleration
        self.stillAngularRate = stillAngularRate
        self.motionSmoothingSeconds = motionSmoothingSeconds
        self.fallbackConfidence = fallbackConfidence
    }

    // MARK: Presets

    /// A bicycle: 4 g (WreckWatch) and armed from 15 km/h. Urban cycling is 15–25 km/h, so
    /// Liberty Rider's 20 km/h would leave much of a ride unguarded; a rider's body lands at
    /// 8–15 g in a bicycle crash, well above 4 g.
    public static let cycling = CrashDetectorParameters(armingSpeed: 15 / 3.6)

    /// A motorcycle: armed from 20 km/h (Liberty Rider), impact 6 g (our choice, not published):
    /// engine vibration and road shocks through the stiffer frame reach 4–5 g on the rider, while a
    /// rider thrown onto the road lands at 10 g and more. Sliding riders take longer to stop,
    /// hence a 15 s window.
    public static let motorcycling = CrashDetectorParameters(
        impactThreshold: 6, armingSpeed: 20 / 3.6, confirmationWindowSeconds: 15)

    /// A car: 4 g, WreckWatch's threshold measured on phones in cars (an F1 turn or hard braking
    /// stays below it), armed from 24 km/h (15 mph, the WreckWatch recording speed in a secondary
    /// summary). A car stops within a second or two of a crash that matters.
    public static let car = CrashDetectorParameters(impactThreshold: 4, armingSpeed: 24 / 3.6)

    // MARK: Validation

    /// Throws `.invalidArgument` naming the first field that is out of range or contradicts another.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(
            impactThreshold.isFinite && impactThreshold > 1,
            "impactThreshold", "must be above 1 g (gravity alone), got \(impactThreshold) g")
        try FallDetectError.require(
            accelerometerFullScale.isFinite && accelerometerFullScale > 1,
            "accelerometerFullScale", "must be above 1 g, got \(accelerometerFullScale) g")
        try FallDetectError.requirePositive(saturatedImpactSeconds, "saturatedImpactSeconds", unit: " s")
        try FallDetectError.requirePositive(impactDeltaV, "impactDeltaV", unit: " m/s")
        try FallDetectError.requirePositive(armingSpeed, "armingSpeed", unit: " m/s")
        try FallDetectError.requireNonNegative(armingHoldSeconds, "armingHoldSeconds", unit: " s")
        try FallDetectError.requirePositive(gnssTimeoutSeconds, "gnssTimeoutSeconds", unit: " s")
        try FallDetectError.requirePositive(confirmationWindowSeconds, "confirmationWindowSeconds", unit: " s")
        try FallDetectError.require(
            stopSpeed.isFinite && stopSpeed >= 0 && stopSpeed < armingSpeed,
            "stopSpeed", "must lie in [0, armingSpeed = \(armingSpeed)) m/s, got \(stopSpeed) m/s")
        try FallDetectError.require(
            speedDropFraction.isFinite && speedDropFraction > 0 && speedDropFraction <= 1,
            "speedDropFraction", "must lie in (0, 1], got \(speedDropFraction)")
        try FallDetectError.require(
            speedLagSeconds.isFinite && speedLagSeconds >= 0 && speedLagSeconds < confirmationWindowSeconds,
            "speedLagSeconds", "must lie in [0, confirmationWindowSeconds = \(confirmationWindowSeconds)) s, got \(speedLagSeconds) s")
        try FallDetectError.requirePositive(slidingDeceleration, "slidingDeceleration", unit: " m/s²")
        try FallDetectError.requirePositive(steadyMotionSeconds, "steadyMotionSeconds", unit: " s")
        try FallDetectError.requirePositive(steadyTiltToleranceDegrees, "steadyTiltToleranceDegrees", unit: "°")
        try FallDetectError.requirePositive(steadyMaximumAngularRate, "steadyMaximumAngularRate", unit: " °/s")
        try FallDetectError.requireNonNegative(steadyMinimumActivity, "steadyMinimumActivity", unit: " g")
        try FallDetectError.requirePositive(fallbackStillSeconds, "fallbackStillSeconds", unit: " s")
        try FallDetectError.require(
            fallbackTiltChangeDegrees.isFinite && fallbackTiltChangeDegrees >= 0 && fallbackTiltChangeDegrees <= 180,
            "fallbackTiltChangeDegrees", "must lie in [0, 180]°, got \(fallbackTiltChangeDegrees)°")
        try FallDetectError.require(
            fallbackWindowSeconds.isFinite && fallbackWindowSeconds >= fallbackStillSeconds,
             "fallbackWindowSeconds", "must be at least fallbackStillSeconds = \(fallbackStillSeconds) s, got \(fallbackWindowSeconds) s")
        try FallDetectError.requirePositive(stillAcceleration, "stillAcceleration", unit: " g")
        try FallDetectError.requirePositive(stillAngularRate, "stillAngularRate", unit: " °/s")
        try FallDetectError.requirePositive(motionSmoothingSeconds, "motionSmoothingSeconds", unit: " s")
        try FallDetectError.require(
            fallbackConfidence.isFinite && fallbackConfidence > 0 && fallbackConfidence <= 1,
            "fallbackConfidence", "must lie in (0, 1], got \(fallbackConfidence)")
    }
}
