#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seeded synthetic vehicle recordings for the crash detector: a trunk-worn ±16 g / ±2000 °/s IMU
/// at 100 Hz (`SyntheticGenerator.sensor`) and 1 Hz GNSS fixes, with the ground truth as
/// `.activity` events (what happens from then on) and `.label` events (2 from a crash's start to the
/// end of its main impact, 0 otherwise; negatives carry only 0).
///
/// No public crash recordings exist, so these traces are built from physics and published figures
/// only: crash pulses are half-sines whose delta-v equals the speed lost (crash-test practice), with
/// peaks from WreckWatch's real-crash table (20 g and more for cars) and from the fall literature
/// for riders (8–25 g landings); sliding riders stop at 0.5–0.7 g (asphalt friction); hard braking
/// is 0.8–1.0 g (WreckWatch: normal driving stays below 4 g); the IMU's forward acceleration is the
/// derivative of the very speed profile the GNSS reports (`SyntheticTrip`). Every recording says
/// `info.isSynthetic = true`. Deterministic per seed and scenario, as `SyntheticGenerator`.
public struct SyntheticVehicleTraces: Sendable {
    public var seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// 2025-06-15T09:00:00Z, a day after `SyntheticGenerator`'s: fixed, so files are reproducible.
    static let baseStartUTCNanoseconds: Int64 = 1_749_978_000 * 1_000_000_000

    /// Trunk attitudes (roll, pitch, yaw in degrees): a car seat reclines the occupant 10° back, a
    /// touring motorcycle leans the rider 15° forward, a bicycle 25° (`SyntheticGenerator.ridingLean`).
    static let carSeat = SIMD3<Double>(0, -10, 0)
    static let motorcycleSeat = SIMD3<Double>(0, 15, 0)
    static let bicycleSeat = SIMD3<Double>(0, SyntheticGenerator.ridingLean, 0)

    typealias Extra = (Double, inout SplitMix64) -> SyntheticMotion.Pose

    public func generate(_ scenario: SyntheticVehicleScenario) -> Recording {
        let index = SyntheticVehicleScenario.allCases.firstIndex(of: scenario) ?? 0
        // Each scenario its own stream (a different constant from `SyntheticGenerator`'s).
        let streamSeed = seed ^ (UInt64(index + 1) &* 0x9FB2_1C65_1E98_DF25)
        let start = Self.baseStartUTCNanoseconds + Int64(index) * 3_600_000_000_000
        let info = RecordingInfo(
            sensor: SyntheticGenerator.sensor, startUTCNanoseconds: start, title: scenario.rawValue, isSynthetic: true)
        let seat: SIMD3<Double>
        switch scenario {
        case .carCrash, .hardBraking, .speedBump, .trafficLightStop: seat = Self.carSeat
        case .motorcycleCrash, .pothole, .gnssOutage: seat = Self.motorcycleSeat
        case .bicycleCrash, .lowSpeedImpact: seat = Self.bicycleSeat
        case .deviceDropped: seat = .zero
        }
        var trip = SyntheticTrip(
            motion: SyntheticMotion(seed: streamSeed, attitude: seat, sensor: SyntheticGenerator.sensor))
        trip.motion.label(0)
        switch scenario {
        case .carCrash: Self.carCrash(&trip)
        case .motorcycleCrash: Self.motorcycleCrash(&trip)
        case .bicycleCrash: Self.bicycleCrash(&trip)
        case .hardBraking: Self.stop(&trip, braking: 0.8...1.0, from: 50...70, waiting: 8...12, activity: "hard-braking")
        case .pothole: Self.pothole(&trip)
        case .speedBump: Self.speedBump(&trip)
        case .deviceDropped: Self.deviceDropped(&trip)
        case .lowSpeedImpact: Self.lowSpeedImpact(&trip)
        case .trafficLightStop: Self.stop(&trip, braking: 0.25...0.35, from: 40...50, waiting: 15...25, activity: "braking")
        case .gnssOutage: Self.gnssOutage(&trip)
        }
        let fixes = trip.fixes(&trip.motion.rng, startUTC: start)
        return Recording(info: info, samples: trip.motion.samples, fixes: fixes, events: trip.motion.events)
    }

    // MARK: Riding

    /// Seated in a car: road vibration grows with speed (a little even when idling), the trunk sways
    /// slowly, pitches forward into the belt when braking and back when speeding up (~8° per g).
    static func car(_ trip: inout SyntheticTrip, _ seconds: Double, speed: (Double) -> Double, extra: Extra? = nil) {
        let t0 = trip.time
        var vibration = trip.vibration, jitter = trip.jitter
        trip.drive(seconds, speed: speed) { t, rng in
            let road = min(1.2, 0.25 + speed(t) / 15)
            let along = SyntheticTrip.slope(speed, t) / SyntheticTrip.g
            vibration = 0.6 * vibration + road * SIMD3(0.012, 0.012, 0.03) * rng.gaussian3()
            jitter = 0.95 * jitter + 0.01 * road * rng.gaussian3()
            let time = t0 + t
            let sway = SIMD3(
                0.5 * SyntheticCurve.wave(0.2, time), 0.4 * SyntheticCurve.wave(0.13, time),
                0.8 * SyntheticCurve.wave(0.03, time))
            var pose = (attitude: carSeat + sway + jitter + SIMD3(0, -8 * along, 0), acceleration: vibration)
            if let extra {
                let e = extra(t, &rng)
                pose.attitude += e.attitude
                pose.acceleration += e.acceleration
            }
            return pose
        }
        trip.vibration = vibration
        trip.jitter = jitter
    }

    /// On a motorcycle: engine and road shake the rider more than a car's occupant (about 0.1 g),
    /// the rider leans up to 6° into slow curves (the turn's lateral acceleration, tan(lean) g, keeps
    /// the specific force along the trunk), and pitches ~5° per g with braking.
    static func motorcycle(_ trip: inout SyntheticTrip, _ seconds: Double, speed: (Double) -> Double, extra: Extra? = nil) {
        let t0 = trip.time
        var vibration = trip.vibration, jitter = trip.jitter
        trip.drive(seconds, speed: speed) { t, rng in
            let road = min(1.3, 0.4 + speed(t) / 20)
            let along = SyntheticTrip.slope(speed, t) / SyntheticTrip.g
            vibration = 0.4 * vibration + road * SIMD3(0.035, 0.035, 0.08) * rng.gaussian3()
            jitter = 0.95 * jitter + 0.03 * road * rng.gaussian3()
            let time = t0 + t
            let lean = 6 * SyntheticCurve.wave(0.04, time)
            let attitude = motorcycleSeat + jitter + SIMD3(lean, -5 * along + 0.5 * SyntheticCurve.wave(0.3, time), 0)
            var a = vibration
            a.y -= tan(lean * Double.pi / 180)
            var pose = (attitude: attitude, acceleration: a)
            if let extra {
                let e = extra(t, &rng)
                pose.attitude += e.attitude
                pose.acceleration += e.acceleration
            }
            return pose
        }
        trip.vibration = vibration
        trip.jitter = jitter
    }

    /// A road shock of `spike` g on the specific force (the 1 g of gravity included) lasting
    /// `duration` seconds from `at`, mostly vertical with a little backward push, nodding the trunk.
    static func jolt(spike: Double, at: Double, duration: Double) -> Extra {
        { t, _ in
            let p = SyntheticCurve.pulse(t, start: at, duration: duration)
            let nod = SyntheticCurve.pulse(t, start: at, duration: 0.3)
            return (SIMD3(0, 2 * nod, 0), SIMD3(-0.25 * (spike - 1) * p, 0, (spike - 1) * p))
        }
    }

    // MARK: Crashes

    /// A frontal car crash at 40–70 km/h: a half-sine pulse of 20–60 g (WreckWatch's real-crash
    /// table starts at 20 g) takes 85–100 % of the speed, the rest rolls off in 1–2 s. The belted
    /// trunk pitches ~35° forward into the belt, rebounds and stays slumped 15–30° forward.
    static func carCrash(_ trip: inout SyntheticTrip) {
        var rng = trip.motion.rng
        let v0 = rng.uniform(40...70) / 3.6
        let cruise = rng.uniform(20...25)
        let phase = rng.uniform(0...(2 * Double.pi))
        let peak = rng.uniform(20...60)
        let lost = rng.uniform(0.85...1.0)
        let rollOff = rng.uniform(1.0...2.0)
        let slump = rng.uniform(15...30)
        let side: Double = rng.uniform() < 0.5 ? -1 : 1
        trip.motion.rng = rng

        func cruising(_ t: Double) -> Double { v0 + 0.4 * sin(2 * Double.pi * t / 30 + phase) - 0.4 * sin(phase) }
        trip.motion.activity("driving")
        car(&trip, cruise, speed: cruising)

        let vc = cruising(cruise)
        let deltaV = vc * lost
        let pulse = SyntheticTrip.pulseDuration(deltaV: deltaV, peak: peak)
        let residual = vc - deltaV
        func speed(_ t: Double) -> Double {
            t < pulse
                ? SyntheticTrip.pulseSpeed(t, from: vc, deltaV: deltaV, duration: pulse)
                : residual * (1 - SyntheticCurve.ease((t - pulse) / rollOff))
        }
        trip.motion.activity("car-crash")
        trip.motion.label(2)
        trip.motion.label(0, offset: pulse)
        let base = trip.motion.attitude
        trip.drive(3, speed: speed) { t, rng in
            let forward = 35 * SyntheticCurve.ease(t / 0.15) - (35 - slump) * SyntheticCurve.ease((t - 0.15) / 0.5)
            let attitude = base + SIMD3(8 * side * SyntheticCurve.ease(t / 0.3), forward, 0)
            // The pulse's own side and vertical parts (belt and seat); the forward part comes from
            // the speed profile.
            let p = peak * SyntheticCurve.pulse(t, start: 0, duration: pulse)
            let settle = 0.05 * exp(-t / 0.3) * rng.gaussian()
            return (attitude, SIMD3(0, 0.25 * side * p, 0.15 * p + settle))
        }
        trip.motion.activity("slumped")
        trip.still(20)
    }

    /// A motorcycle low-side at 40–90 km/h: the bike slides out and the rider falls sideways for
    /// 0.3–0.4 s (|a| drops), lands at 10–25 g, tumbles over the road at 300–700 °/s with 3–8 g
    /// ground contacts, slides to a stop at 0.5–0.7 g (rider on asphalt) and lies on the side.
    static func motorcycleCrash(_ trip: inout SyntheticTrip) {
        var rng = trip.motion.rng
        let v0 = rng.uniform(40...90) / 3.6
        let cruise = rng.uniform(20...25)
        let phase = rng.uniform(0...(2 * Double.pi))
        let fall = rng.uniform(0.3...0.4)
        let landing = rng.uniform(10...25)
        let landingLength = rng.uniform(0.03...0.05)
        let friction = rng.uniform(0.5...0.7)
        let turns = rng.uniform() < 0.5 ? 1 : 2
        let rate = rng.uniform(300...700)
        let tumble = 720 * Double(turns) / rate  // the roll rate starts at `rate` and decays to 0
        let contacts = (0..<(2 * turns)).map { k in
            (time: fall + landingLength + (Double(k) + 0.5) * tumble / Double(2 * turns + 1), spike: rng.uniform(3...8))
        }
        let side: Double = rng.uniform() < 0.5 ? -1 : 1
        trip.motion.rng = rng

        func cruising(_ t: Double) -> Double { v0 + 0.3 * sin(2 * Double.pi * t / 30 + phase) - 0.3 * sin(phase) }
        trip.motion.activity("riding")
        motorcycle(&trip, cruise, speed: cruising)

        let vc = cruising(cruise)
        let slide = vc / (friction * SyntheticTrip.g)
        func speed(_ t: Double) -> Double { t < fall ? vc : max(0, vc - friction * SyntheticTrip.g * (t - fall)) }
        let base = trip.motion.attitude
        let direction = SIMD3<Double>(0, 0.4 * side, 1) / (1 + 0.16).squareRoot()
        trip.motion.activity("motorcycle-crash")
        trip.motion.label(1)
        trip.motion.label(2, offset: 0.05)
        trip.motion.label(0, offset: fall + landingLength)
        var scrape = SIMD3<Double>.zero
        trip.drive(fall + max(slide, tumble) + 0.5, speed: speed) { t, rng in
            var roll = 90 * SyntheticCurve.ease(t / fall)
            if t > fall {
                let u = min((t - fall) / tumble, 1)
                roll = 90 + 360 * Double(turns) * (1 - (1 - u) * (1 - u))
            }
            let settle = SyntheticCurve.ease(t / (fall + tumble))
            let attitude = SIMD3(base.x * (1 - settle) + side * roll, base.y * (1 - settle), base.z + 60 * side * settle)
            var a = SIMD3<Double>.zero
            if t < fall {
                a.z = -0.7 * SyntheticCurve.ease(t / 0.15)  // falling: |a| drops towards 0.3 g
            } else if t <= fall + landingLength {
                let tau = t - fall
                a = (landing - 1) * SyntheticCurve.pulse(tau, start: 0, duration: landingLength) * direction
                a.z -= 0.7 * (1 - SyntheticCurve.ease(tau / landingLength))
            } else {
                for c in contacts { a.z += (c.spike - 1) * SyntheticCurve.pulse(t, start: c.time, duration: 0.04) }
                // Asphalt scrapes the sliding body until it stops.
                let fade = speed(t) > 0 ? 1.0 : 0.0
                scrape = 0.5 * scrape + 0.25 * fade * rng.gaussian3()
                a += scrape
            }
            return (attitude, a)
        }
        trip.motion.activity("lying")
        trip.still(20)
    }

    /// A bicycle crash at 20–30 km/h, acted by `SyntheticGenerator`'s ride and crash: the obstacle's
    /// 2.2 g half-sine jolt (0.12 s) takes 1.65 m/s, the rider flies at that speed, lands at 0.55 s
    /// and slides to a stop 2.5 s after the obstacle, as that generator's GNSS track has it.
    static func bicycleCrash(_ trip: inout SyntheticTrip) {
        let v0 = trip.motion.rng.uniform(20...30) / 3.6
        let cruise = trip.motion.rng.uniform(20...25)
        trip.motion.activity("cycling")
        trip.scripted(speed: { _ in v0 }) { SyntheticGenerator.ride(&$0, seconds: cruise) }
        let jolt = 2.2 * SyntheticTrip.g * 0.12 * 2 / Double.pi
        let landed = 0.61, stopped = 2.5
        trip.scripted(speed: { t in
            if t < 0.12 { return SyntheticTrip.pulseSpeed(t, from: v0, deltaV: jolt, duration: 0.12) }
            if t < landed { return v0 - jolt }
            return (v0 - jolt) * max(0, 1 - (t - landed) / (stopped - landed))
        }) { SyntheticGenerator.crash(&$0) }
        trip.motion.activity("lying")
        trip.still(25)
    }

    // MARK: Everyday events (must not alarm)

    /// Driving, braking to a standstill at a peak of `braking` g (0.8–1.0 g is an emergency stop
    /// on dry asphalt, 0.25–0.35 g a normal stop), waiting, driving off at 0.25 g.
    static func stop(
        _ trip: inout SyntheticTrip, braking: ClosedRange<Double>, from speeds: ClosedRange<Double>,
        waiting: ClosedRange<Double>, activity: String
    ) {
        let v0 = trip.motion.rng.uniform(speeds) / 3.6
        let cruise = trip.motion.rng.uniform(15...20)
        let deceleration = trip.motion.rng.uniform(braking) * SyntheticTrip.g
        let wait = trip.motion.rng.uniform(waiting)
        let v1 = trip.motion.rng.uniform(30...50) / 3.6
        trip.motion.activity("driving")
        car(&trip, cruise, speed: { _ in v0 })
        trip.motion.activity(activity)
        let slowing = SyntheticTrip.change(from: v0, to: 0, acceleration: deceleration)
        car(&trip, slowing.seconds, speed: slowing.speed)
        trip.motion.activity("stopped")
        car(&trip, wait, speed: { _ in 0 })
        trip.motion.activity("driving")
        let going = SyntheticTrip.change(from: 0, to: v1, acceleration: 0.25 * SyntheticTrip.g)
        car(&trip, going.seconds, speed: going.speed)
        car(&trip, 10, speed: { _ in v1 })
    }

    /// A motorcycle at 30–50 km/h hits a pothole or a curb edge: a 5–8 g jolt of 20–40 ms, and the
    /// ride goes on at the same speed.
    static func pothole(_ trip: inout SyntheticTrip) {
        let v0 = trip.motion.rng.uniform(30...50) / 3.6
        let cruise = trip.motion.rng.uniform(15...25)
        let spike = trip.motion.rng.uniform(5...8)
        let length = trip.motion.rng.uniform(0.02...0.04)
        trip.motion.activity("riding")
        motorcycle(&trip, cruise, speed: { _ in v0 })
        trip.motion.activity("pothole")
        motorcycle(&trip, 0.5, speed: { _ in v0 }, extra: jolt(spike: spike, at: 0.1, duration: length))
        trip.motion.activity("riding")
        motorcycle(&trip, 20, speed: { _ in v0 })
    }

    /// A car slows from 35–45 km/h to 10–18 km/h at 0.3 g for a speed bump; front and rear wheels
    /// hit it one wheelbase (2.7 m) apart with 2.5–5 g jolts (a bump taken briskly), then it speeds
    /// up again at 0.2 g.
    static func speedBump(_ trip: inout SyntheticTrip) {
        let v0 = trip.motion.rng.uniform(35...45) / 3.6
        let slow = trip.motion.rng.uniform(10...18) / 3.6
        let cruise = trip.motion.rng.uniform(15...20)
        let front = trip.motion.rng.uniform(2.5...5)
        let rear = front * trip.motion.rng.uniform(0.6...0.9)
        let length = trip.motion.rng.uniform(0.03...0.05)
        let approach = trip.motion.rng.uniform(1...2)
        trip.motion.activity("driving")
        car(&trip, cruise, speed: { _ in v0 })
        let slowing = SyntheticTrip.change(from: v0, to: slow, acceleration: 0.3 * SyntheticTrip.g)
        car(&trip, slowing.seconds, speed: slowing.speed)
        car(&trip, approach, speed: { _ in slow })
        trip.motion.activity("speed-bump")
        let wheelbase = 2.7 / slow
        let first = jolt(spike: front, at: 0.1, duration: length)
        let second = jolt(spike: rear, at: 0.1 + wheelbase, duration: length)
        car(&trip, 0.5 + wheelbase, speed: { _ in slow }) { t, rng in
            let a = first(t, &rng), b = second(t, &rng)
            return (a.attitude + b.attitude, a.acceleration + b.acceleration)
        }
        trip.motion.activity("driving")
        let going = SyntheticTrip.change(from: slow, to: v0, acceleration: 0.2 * SyntheticTrip.g)
        car(&trip, going.seconds, speed: going.speed)
        car(&trip, 15, speed: { _ in v0 })
    }

    /// Standing still, the device slips and falls 1–1.5 m (free fall, tumbling), hits a hard floor
    /// at 20–60 g with the delta-v of the fall (√(2gh), 4.4–5.4 m/s), bounces once at 3–6 g and lies
    /// on its side. GNSS keeps reporting a standstill.
    static func deviceDropped(_ trip: inout SyntheticTrip) {
        var rng = trip.motion.rng
        let standing = rng.uniform(10...15)
        let height = rng.uniform(1.0...1.5)
        let fall = (2 * height / SyntheticTrip.g).squareRoot()
        let impactSpeed = (2 * SyntheticTrip.g * height).squareRoot()
        let peak = rng.uniform(20...60)
        let length = SyntheticTrip.pulseDuration(deltaV: impactSpeed, peak: peak)
        let bounce = rng.uniform(3...6)
        let bounceAt = fall + length + rng.uniform(0.1...0.2)
        let resting = SIMD3(
            (rng.uniform() < 0.5 ? -1 : 1) * rng.uniform(70...110), rng.uniform(-20...20), rng.uniform(-90...90))
        trip.motion.rng = rng
        trip.motion.activity("standing")
        trip.still(standing)
        trip.motion.activity("device-dropped")
        let base = trip.motion.attitude
        trip.drive(fall + 1, speed: { _ in 0 }) { t, _ in
            let attitude = base + (resting - base) * SyntheticCurve.ease(t / (fall + length))
            var a = SIMD3<Double>.zero
            if t < fall {
                a.z = -SyntheticCurve.ease(t / 0.04)  // free fall: the specific force vanishes
            } else if t <= fall + length {
                let tau = t - fall
                a.z = (peak - 1) * SyntheticCurve.pulse(tau, start: 0, duration: length) - (1 - SyntheticCurve.ease(tau / length))
            } else {
                a.z = (bounce - 1) * SyntheticCurve.pulse(t, start: bounceAt, duration: 0.02)
            }
            return (attitude, a)
        }
        trip.motion.activity("device-on-floor")
        trip.still(15)
    }

    /// Cycling at 7–11 km/h, below every preset's arming speed, the front wheel hits a curb: a
    /// half-sine of 6–14 g takes all the speed, the rider stands up over the bike and waits.
    static func lowSpeedImpact(_ trip: inout SyntheticTrip) {
        let v0 = trip.motion.rng.uniform(7...11) / 3.6
        let cruise = trip.motion.rng.uniform(20...25)
        let peak = trip.motion.rng.uniform(6...14)
        trip.motion.activity("cycling")
        trip.scripted(speed: { _ in v0 }) { SyntheticGenerator.ride(&$0, seconds: cruise) }
        let length = SyntheticTrip.pulseDuration(deltaV: v0, peak: peak)
        trip.motion.activity("curb-impact")
        let base = trip.motion.attitude
        trip.drive(2.5, speed: { t in SyntheticTrip.pulseSpeed(t, from: v0, deltaV: v0, duration: length) }) { t, _ in
            let up = SyntheticCurve.ease((t - 0.3) / 1.5)
            let p = SyntheticCurve.pulse(t, start: 0, duration: length)
            return (base + SIMD3(0, (5 - base.y) * up, 0), SIMD3(0, 0, 0.2 * peak * p))
        }
        trip.motion.activity("standing")
        trip.still(15)
    }

    /// A motorcycle at 30–45 km/h enters a tunnel: 25–35 s without a fix, with a 5–8 g pothole jolt
    /// 8–15 s into it (beyond the arming hold and the GNSS timeout), and rides on out of it.
    static func gnssOutage(_ trip: inout SyntheticTrip) {
        let v0 = trip.motion.rng.uniform(30...45) / 3.6
        let outage = trip.motion.rng.uniform(25...35)
        let shockAt = trip.motion.rng.uniform(8...15)
        let spike = trip.motion.rng.uniform(5...8)
        let length = trip.motion.rng.uniform(0.02...0.04)
        trip.motion.activity("riding")
        motorcycle(&trip, 15, speed: { _ in v0 })
        trip.motion.event(.note, text: "gnss outage begins")
        trip.loseGNSS(for: outage)
        motorcycle(&trip, shockAt, speed: { _ in v0 })
        trip.motion.activity("pothole")
        motorcycle(&trip, 0.5, speed: { _ in v0 }, extra: jolt(spike: spike, at: 0.1, duration: length))
        trip.motion.activity("riding")
        motorcycle(&trip, outage - shockAt - 0.5, speed: { _ in v0 })
        trip.motion.event(.note, text: "gnss outage ends")
        motorcycle(&trip, 10, speed: { _ in v0 })
    }
}
