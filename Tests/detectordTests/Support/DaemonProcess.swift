import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `detectord run` process for the daemon's tests: its log lines are collected as they
/// come, the API's address is read from the log, and it can be stopped with SIGTERM or killed.
final class DaemonProcess: Sendable {
    enum Failure: Error, CustomStringConvertible {
        case timedOut(String, log: String)
        var description: String {
            switch self {
            case .timedOut(let what, let log): "timed out waiting for \(what); log:\n\(log)"
            }
        }
    }

    private let process: Process
    private let log = Mutex<[String]>([])
    private let output = Mutex<[String]>([])

    /// `launcher` runs in front of the daemon (a wrapper such as faketime that forks it as a child).
    init(arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws {
        process = Process()
        if let wrapper = launcher.first {
            process.executableURL = URL(fileURLWithPath: wrapper)
            process.arguments = launcher.dropFirst() + [DetectordProcess.executable.path, "run"] + arguments
        } else {
            process.executableURL = DetectordProcess.executable
            process.arguments = ["run"] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let err = Pipe()
        let out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        collect(err.fileHandleForReading, toLog: true)
        collect(out.fileHandleForReading, toLog: false)
    }

    private func collect(_ handle: FileHandle, toLog: Bool) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    if toLog { log.withLock { $0.append(line) } } else { output.withLock { $0.append(line) } }
                }
            }
        }
        thread.start()
    }

    var logLines: [String] { log.withLock { $0 } }
    var outputLines: [String] { output.withLock { $0 } }
    var isRunning: Bool { process.isRunning }
    var terminationStatus: Int32 { process.terminationStatus }
    var processIdentifier: Int32 { process.processIdentifier }

    /// The first log line of event `type` (the word after the level) that satisfies `matching`.
    @discardableResult
    func waitForEvent(_ type: String, timeout: Double = 30, matching: (String) -> Bool = { _ in true }) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = logLines.first(where: { Self.eventType(of: $0) == type && matching($0) }) { return line }
            if !process.isRunning, logLines.allSatisfy({ Self.eventType(of: $0) != type || !matching($0) }) {
                throw Failure.timedOut("\(type) (the daemon exited with \(process.terminationStatus))", log: logLines.joined(separator: "\n"))
            }
            usleep(20_000)
        }
        throw Failure.timedOut(type, log: logLines.joined(separator: "\n"))
    }

    /// `TIME LEVEL TYPE key=value ...` → TYPE.
    static func eventType(of line: String) -> String? {
        let words = line.split(separator: " ", maxSplits: 3)
        return words.count >= 3 ? String(words[2]) : nil
    }

    /// The log line's time, seconds since 1970.
    static func time(of line: String) -> Double? {
        guard let word = line.split(separator: " ").first else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(word))?.timeIntervalSince1970
    }

    /// The value of `key=` in a log line (unquoted).
    static func value(_ key: String, in line: String) -> String? {
        guard let range = line.range(of: " \(key)=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.hasPrefix("\"") {
            return String(rest.dropFirst().prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != " " })
    }

    /// The API's base URL, from the daemon's `api` line.
    func apiBase(timeout: Double = 30) throws -> String {
        let line = try waitForEvent("api", timeout: timeout)
        let url = Self.value("url", in: line) ?? ""
        return String(url.dropLast("/api/status".count))
    }

    func terminate() { process.terminate() }

    /// Kills the daemon, and its launcher's children with it.
    func kill9() {
        Self.killChildren(of: process.processIdentifier)
        kill(process.processIdentifier, SIGKILL)
    }

    private static func killChildren(of pid: Int32) {
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-KILL", "-P", String(pid)]
        guard (try? pkill.run()) != nil else { return }
        pkill.waitUntilExit()
    }

    /// Waits for the process to end; false when it did not within `timeout`.
    func waitForExit(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { return false }
        process.waitUntilExit()
        return true
    }

    deinit {
        if process.isRunning { kill9() }
    }

    /// A request to the daemon's API, synchronously (tests run one at a time).
    static func request(
        _ url: String, method: String = "GET", json: [String: Any]? = nil, contentType: String? = "application/json", headers: [String: String] = [:]
    ) throws -> (status: Int, body: [String: Any], text: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json { request.httpBody = try JSONSerialization.data(withJSONObject: json) }
        if let contentType, method == "POST" { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(Data, Int)?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            result.withLock { $0 = (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0) }
            done.signal()
        }.resume()
        // Generous: a PIN check is slow on purpose, and the suites run beside heavy training tests.
        _ = done.wait(timeout: .now() + 30)
        let (data, status) = result.withLock { $0 } ?? (Data(), 0)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, object, String(decoding: data, as: UTF8.self))
    }
}
