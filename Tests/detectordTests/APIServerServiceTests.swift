import Foundation
import Testing
@testable import detectord
#if canImport(Glibc)
import Glibc
#endif

/// The API's port held by another program: the daemon protects on without its page, says why,
/// tells systemd it is up, and serves the API once the port is free.
@Suite(.serialized) struct APIServerServiceTests {
    /// A TCP socket listening on a free loopback port, standing for the other program.
    final class HeldPort {
        let port: Int
        private var fd: Int32

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard fd >= 0, bound else {
                if fd >= 0 { close(fd) }
                throw POSIXError(.EADDRINUSE)
            }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        func release() {
            if fd >= 0 { close(fd) }
            fd = -1
        }

        deinit { release() }
    }

    @Test func aPortHeldByAnotherProgramIsTriedAgainWhileDetectionGoesOn() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 30)
        let held = try HeldPort()
        let notify = try WatchdogServiceTests.NotifySocket(directory: setup.directory)
        let daemon = try DaemonProcess(
            arguments: ["--config", setup.configPath, "--listen", "127.0.0.1:\(held.port)", "--status-every", "0"],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"])
        defer { daemon.kill9() }
        let first = try daemon.waitForEvent("error", timeout: 30) { $0.contains("cannot listen") }
        #expect(first.contains("127.0.0.1:\(held.port)") && first.contains("trying again in 1 s"), "\(first)")
        // The next try waits twice as long.
        _ = try daemon.waitForEvent("error", timeout: 10) { $0.contains("trying again in 2 s") }
        notify.collect(for: 1.5)
        let ready = notify.received.first { $0.text.contains("READY=1") }
        #expect(ready?.text.contains("cannot listen") == true, "systemd is told the daemon is up: \(notify.received.map(\.text))")
        #expect(notify.received.contains { $0.text == "WATCHDOG=1" }, "the detector works on: \(notify.received.map(\.text))")
        held.release()
        let api = try daemon.waitForEvent("api", timeout: 10)
        #expect(api.contains(":\(held.port)/api/status"), "\(api)")
        let (status, body, _) = try DaemonProcess.request("http://127.0.0.1:\(held.port)/api/status")
        #expect(status == 200, "\(body)")
        let samples = (body["sensor"] as? [String: Any])?["samples"] as? Int ?? 0
        // Walking at 100 Hz since before the first failure, three seconds and more ago.
        #expect(samples > 300, "detection ran while the API could not listen: \(samples) samples")
    }
}
