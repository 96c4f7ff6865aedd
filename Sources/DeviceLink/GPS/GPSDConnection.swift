import CGPS
#if canImport(Glibc)
import Glibc
#endif

/// An open session with gpsd through libgps. The `gps_data_t` is large and libgps keeps pointers
/// into it, so it lives in one heap allocation owned by this class and is never copied.
public final class GPSDConnection {
    let data: UnsafeMutablePointer<gps_data_t>
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

extension GPSDConnection {
    /// What one read from gpsd brought.
    public enum ReadResult {
        /// Nothing complete yet.
        case nothing
        /// gpsd closed the connection (errno 0) or the socket failed (errno set).
        case closed(errno: Int32)
        /// A report; `fix` is set for TPV, `satellitesUsed` for SKY.
        case report(fix: cgps_fix?, satellitesUsed: Int?)
    }

    /// Asks gpsd to stream JSON reports on this connection (gpsd keeps that policy per connection).
    public func watch() throws(GPSDError) {
        if cgps_watch(data) < 0 { throw GPSDError(code: cgps_last_error(), host: host, port: port) }
    }

    /// Waits up to `timeoutMicroseconds` for input; true when a read will not block.
    public func waitForInput(timeoutMicroseconds: Int32) -> Bool {
        gps_waiting(data, timeoutMicroseconds)
    }

    /// Waits up to `timeoutMicroseconds` for the socket itself. libgps's own wait answers at once
    /// while it holds part of a line, so after a read that brought nothing it is no wait at all.
    public func waitForSocket(timeoutMicroseconds: Int32) {
        var fds = [pollfd(fd: data.pointee.gps_fd, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, timeoutMicroseconds / 1000)
    }

    public func read() -> ReadResult {
        cgps_clear_error()
        let n = cgps_read(data)
        if n < 0 { return .closed(errno: cgps_last_error()) }
        if n == 0 { return .nothing }
        var fix: cgps_fix?
        if cgps_has_tpv(data) != 0 {
            var extracted = cgps_fix()
            cgps_extract(data, &extracted)
            fix = extracted
        }
        let satellites = cgps_has_sky(data) != 0 ? Int(data.pointee.satellites_used) : nil
        return .report(fix: fix, satellitesUsed: satellites)
    }
}
