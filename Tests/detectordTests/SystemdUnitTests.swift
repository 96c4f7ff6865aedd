import Foundation
import Testing

/// The shipped unit file, checked by systemd's own parser against the built binary.
@Suite struct SystemdUnitTests {
    static var unit: URL { DetectordProcess.packageRoot.appendingPathComponent("config/systemd/detectord.service") }

    @Test func systemdAcceptsTheUnitWithoutAWarning() throws {
        let verifier = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let analyze = try #require(verifier, "systemd-analyze is needed (Debian: systemd)")
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        #expect(text.contains("Type=notify") && text.contains("WatchdogSec="))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("detectord.service")
        try Data(text.replacingOccurrences(of: "/usr/local/bin/detectord", with: DetectordProcess.executable.path).utf8).write(to: copy)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["verify", copy.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = err
        try process.run()
        let output = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        // Unknown or misspelt keys are only warnings to systemd; here they fail.
        let complaints = output.split(separator: "\n").filter { $0.contains("detectord.service") }
        #expect(complaints.isEmpty, "\(complaints)")
    }
}
