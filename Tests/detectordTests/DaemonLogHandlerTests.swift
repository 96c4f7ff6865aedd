import Foundation
import Logging
import Testing
@testable import detectord
#if canImport(Glibc)
import Glibc
#endif

/// One line per event: under systemd (JOURNAL_STREAM set) each starts with its syslog priority,
/// which journald reads; by hand each starts with the time and the level.
@Suite struct DaemonLogHandlerTests {
    @Test func prioritiesFollowSyslog() {
        #expect(DaemonLogHandler.priority(.error) == 3)
        #expect(DaemonLogHandler.priority(.warning) == 4)
        #expect(DaemonLogHandler.priority(.notice) == 5)
        #expect(DaemonLogHandler.priority(.info) == 6)
        #expect(DaemonLogHandler.priority(.debug) == 7)
    }

    @Test func underSystemdEachLineCarriesItsPriorityAndNoTime() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true)
        let daemon = try DaemonProcess(
            arguments: ["--config", setup.configPath, "--listen", "127.0.0.1:0", "--status-every", "0"],
            environment: ["JOURNAL_STREAM": "8:12345"])
        defer { daemon.kill9() }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !daemon.logLines.contains(where: { $0.hasPrefix("<6>api ") }) { usleep(20_000) }
        let lines = daemon.logLines
        #expect(lines.contains { $0.hasPrefix("<5>start version=") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<4>warning message=\"no GNSS source is configured") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>api url=http://127.0.0.1:") }, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<") }, "every line has a priority and nothing else in front: \(lines)")
        daemon.terminate()
        #expect(daemon.waitForExit(timeout: 20))
        #expect(daemon.logLines.last?.hasPrefix("<5>stop ") == true, "\(daemon.logLines.suffix(3))")
    }
}
