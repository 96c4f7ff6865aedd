import FallDetect
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The workflow's store failing under a running daemon while a fall happens: the database on a
/// small tmpfs that is filled up. The fall must not be lost: the person (and the log) see an
/// error, and once the store takes writes again the emergency is recorded and its alert sent,
/// once. (A read-only remount is refused while the daemon holds the file open for writing, so
/// that fault is not injected this way.)
@Suite(.serialized) struct WorkflowServiceTests {
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Writes zeros until the file system says it is full.
    static func fill(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // The last partial block.
        while write(fd, chunk, 1) > 0 {}
    }

    @Test func aFallWhileTheDiskIsFullIsRecordedLateAndItsAlertGoesOutOnce() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let disk = setup.directory.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // Mounting needs root (CI runs as root); a machine where it is refused fails here plainly.
        try #require(try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", disk]) == 0, "cannot mount a tmpfs at \(disk): run as root")
        defer { _ = try? Self.run("/bin/umount", ["-l", disk]) }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 2, webhook: sink.url)
        let daemon = try setup.start(["--db", disk + "/detectord.sqlite", "--exit-when-idle"])
        try daemon.waitForEvent("api", timeout: 30)
        let filler = disk + "/filler"
        Self.fill(filler)
        try daemon.waitForEvent("detection", timeout: 90) { $0.contains("kind=fall") }
        try daemon.waitForEvent("error", timeout: 30) { $0.contains("tried again every second") }
        Thread.sleep(forTimeInterval: 2)
        #expect(daemon.isRunning, "the daemon goes on")
        #expect(sink.requests.isEmpty, "nothing is sent that is not recorded")
        try FileManager.default.removeItem(atPath: filler)
        try daemon.waitForEvent("recorded_late", timeout: 30) { $0.contains("detection_automatic_fall") }
        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=EMERGENCY_SENT") }
        #expect(daemon.waitForExit(timeout: 90), "\(daemon.logLines.suffix(20).joined(separator: "\n"))")
        #expect(RunCommandTests.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
        let incidents = try WorkflowStore(path: disk + "/detectord.sqlite").incidents()
        #expect(incidents.count == 1 && incidents.first?.sentAt != nil)
    }
}
