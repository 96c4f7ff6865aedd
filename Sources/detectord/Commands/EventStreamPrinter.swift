import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a server-sent-events stream as it arrives and prints each event's data line.
/// (FoundationNetworking on Linux has no async byte stream, so this is a data delegate.)
/// An answer other than 200 (a login refused, another service on that port) is no stream: its
/// body is kept for the error, not printed as events.
final class EventStreamPrinter: NSObject, URLSessionDataDelegate, Sendable {
    /// The answer was not a stream: its status and what it said.
    struct Refused: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "HTTP \(status)" + (status == 200 ? " but not text/event-stream" : "") + (body.isEmpty ? "" : ": " + body) }
    }

    private let state = Mutex<(pending: [UInt8], done: CheckedContinuation<(any Error)?, Never>?)>(([], nil))

    /// Runs `task` to its end; returns the error that ended it, nil when the server closed it.
    func run(_ task: URLSessionDataTask) async -> (any Error)? {
        await withCheckedContinuation { continuation in
            state.withLock { $0.done = continuation }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !Self.isStream(dataTask) {
            // Only its start is told; a page that is no stream may be long.
            let full = state.withLock { s in
                s.pending += data.prefix(max(0, 4096 - s.pending.count))
                return s.pending.count >= 4096
            }
            // Enough to tell what answered; a page that never ends must not hold ctl.
            if full { dataTask.cancel() }
            return
        }
        let lines: [String] = state.withLock { s in
            s.pending += data
            var lines: [String] = []
            while let newline = s.pending.firstIndex(of: 10) {
                lines.append(String(decoding: s.pending[..<newline], as: UTF8.self))
                s.pending.removeSubrange(...newline)
            }
            return lines
        }
        for line in lines where line.hasPrefix("data: ") {
            Terminal.standardOutput.write(String(line.dropFirst(6)) + "\n")
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (done, body) = state.withLock { s in
            defer { s.done = nil }
            return (s.done, s.pending)
        }
        if let status = Self.status(of: task), !Self.isStream(task) {
            let text = String(decoding: body.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            done?.resume(returning: Refused(status: status, body: text))
            return
        }
        done?.resume(returning: error)
    }

    private static func status(of task: URLSessionTask) -> Int? {
        (task.response as? HTTPURLResponse)?.statusCode
    }

    /// A 200 of `text/event-stream`: anything else (a login page, another service) is no stream.
    private static func isStream(_ task: URLSessionTask) -> Bool {
        guard let response = task.response as? HTTPURLResponse, response.statusCode == 200 else { return false }
        return response.value(forHTTPHeaderField: "Content-Type")?.lowercased().hasPrefix("text/event-stream") == true
    }

    /// No redirect is followed: the daemon's stream never redirects, and a login page elsewhere is
    /// no stream.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
