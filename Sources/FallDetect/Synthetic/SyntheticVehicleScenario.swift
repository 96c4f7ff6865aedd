/// The vehicle stories `SyntheticVehicleTraces` can act out: three crashes a crash detector must
/// confirm and the everyday events it must not. Numbers are drawn per seed within the ranges given.
public enum SyntheticVehicleScenario: String, Sendable, CaseIterable {
    /// Driving at 40–70 km/h, a frontal crash of 20–60 g peak (clipped at 16 g) whose half-sine
    /// pulse stops the car, the belted occupant slumps and stays still.
    case carCrash = "car-crash"
    /// Riding at 40–90 km/h, the bike slides out: the rider lands at 10–25 g, tumbles over the
    /// road (300–700 °/s, a few 3–8 g ground contacts), slides to a stop at 0.5–0.7 g, lies still.
    case motorcycleCrash = "motorcycle-crash"
    /// Cycling at 20–30 km/h, the front wheel hits an obstacle, the rider goes over the bars, lands
    /// at 10–13 g, slides to a stop and lies on the back (`SyntheticGenerator`'s bike crash).
    case bicycleCrash = "bicycle-crash"
    /// Driving at 50–70 km/h, braking at 0.8–1.0 g to a stop, waiting, driving off (no crash).
    case hardBraking = "hard-braking"
    /// Riding a motorcycle at 30–50 km/h, a pothole or curb edge gives a 5–8 g jolt of 20–40 ms,
    /// the ride goes on (no crash).
    case pothole = "pothole"
    /// Driving at 35–45 km/h, slowing to 10–18 km/h for a speed bump whose two wheel hits give
    /// 2.5–5 g jolts, speeding up again (no crash).
    case speedBump = "speed-bump"
    /// Standing still with GNSS reporting no speed, the device falls 1–1.5 m onto a hard floor
    /// (20–60 g, clipped), bounces and lies there (no crash).
    case deviceDropped = "device-dropped"
    /// Cycling at 7–11 km/h, below any arming speed, a crash-like 6–14 g hit on a curb, a stop
    /// (not a vehicle crash; the fall detector's business).
    case lowSpeedImpact = "low-speed-impact"
    /// Driving at 40–50 km/h, a gentle stop at a red light, 15–25 s of waiting, driving off.
    case trafficLightStop = "traffic-light-stop"
    /// Riding a motorcycle at 30–45 km/h through a 25–35 s GNSS outage (a tunnel: fixes say "no
    /// fix"), with a 5–8 g pothole jolt inside it, riding on (no crash).
    case gnssOutage = "gnss-outage"

    /// Whether a crash happens, i.e. whether a crash detector should alarm.
    public var containsCrash: Bool {
        switch self {
        case .carCrash, .motorcycleCrash, .bicycleCrash: true
        case .hardBraking, .pothole, .speedBump, .deviceDropped, .lowSpeedImpact, .trafficLightStop, .gnssOutage:
            false
        }
    }

    /// The detector preset for the vehicle in the trace.
    public var preset: CrashDetectorParameters {
        switch self {
        case .carCrash, .hardBraking, .speedBump, .trafficLightStop: .car
        case .motorcycleCrash, .pothole, .gnssOutage: .motorcycling
        case .bicycleCrash, .lowSpeedImpact, .deviceDropped: .cycling
        }
    }

    /// The file name, e.g. `car-crash.detrec`.
    public var fileName: String { rawValue + "." + RecordingFormat.fileExtension }
}
