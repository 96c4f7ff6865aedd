import CGPS

/// An open session with gpsd through libgps. The `gps_data_t` is large and libgps keeps pointers
/// into it, so it lives in one heap allocation owned by this class and is never copied.
public final class GPSDConnection {
    private let data: UnsafeMutablePointer<gps_data_t>
    public let host: String
    public let port: String

    /// The libgps API version this binary was built against (11 for gpsd 3.22).
    public static var apiVersion: (major: Int, minor: Int) {
        (Int(cgps_api_major()), Int(cgps_api_minor()))
    }

    /// Connects to gpsd; fails with gpsd's own error code when nothing is listening.
    public init(host: String = "127.0.0.1", port: String = "2947") throws(GPSDError) {
        // Open before any stored property is set: a class initializer that throws after that
        // point still runs deinit, which would close and free the buffer a second time.
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        if gps_open(host, port, data) != 0 {
            let code = cgps_last_error()
            data.deinitialize(count: 1)
            data.deallocate()
            throw GPSDError(code: code, host: host, port: port)
        }
        self.data = data
        self.host = host
        self.port = port
    }

    deinit {
        gps_close(data)
        data.deinitialize(count: 1)
        data.deallocate()
    }
}
