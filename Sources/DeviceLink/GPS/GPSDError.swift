import CGPS

/// A failure reported by libgps. gpsd's `gps_open` uses its own negative codes (NL_NOSERVICE …
/// NL_NOCONNECT) rather than errno values; keep the code and the library's text for it.
public struct GPSDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// gpsd's code: negative NL_* values from `gps_open`, or a positive errno from a socket call.
    public var code: Int32
    public var host: String
    public var port: String

    /// gpsd's NL_NOCONNECT: nothing accepted the connection.
    public static let noConnectCode: Int32 = -6

    public init(code: Int32, host: String, port: String) {
        self.code = code
        self.host = host
        self.port = port
    }

    public var description: String {
        let text = code < 0 ? String(cString: cgps_error_string(code)) : "errno \(code)"
        return "gpsd at \(host):\(port): \(text) (code \(code))"
    }
}
