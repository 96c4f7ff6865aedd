import CGPS
import FallDetect

extension GNSSFix {
    /// Converts libgps's flat record (NaN or -1 for what gpsd did not report) to optionals.
    init(_ raw: cgps_fix, receivedAt timestamp: Int64, satellitesUsed: Int?) {
        func value(_ x: Double) -> Double? { x.isFinite ? x : nil }
        let mode: Mode = raw.mode >= 3 ? .threeD : raw.mode == 2 ? .twoD : .none
        self.init(
            timestampNanoseconds: timestamp,
            utcNanoseconds: raw.has_time != 0 ? raw.time_ns : nil,
            mode: mode,
            status: Status(rawValue: UInt8(clamping: max(0, raw.status))) ?? .unknown,
            latitude: mode == .none ? nil : value(raw.latitude),
            longitude: mode == .none ? nil : value(raw.longitude),
            altitude: mode == .threeD ? value(raw.altitude_msl) : nil,
            speed: value(raw.speed),
            track: value(raw.track),
            horizontalAccuracy: value(raw.eph),
            verticalAccuracy: value(raw.epv),
            satellitesUsed: raw.satellites_used >= 0 ? Int(raw.satellites_used) : satellitesUsed)
    }
}
