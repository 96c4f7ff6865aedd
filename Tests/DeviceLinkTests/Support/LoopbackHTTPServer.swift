import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 over POSIX sockets, for the webhook tests: it records each
/// request and answers with the status the test chose, one request per connection.
final class LoopbackHTTPServer: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// Lower-cased names.
        var headers: [String: String]
        var body: Data
    }

    struct Reply: Sendable {
        /// 0: never answer; hold the connection until the client gives up.
        var status: Int
        var headers: [String: String] = [:]
    }

    private struct State {
        var requests: [Request] = []
        var replies: [Reply]
        var stop = false
    }

    let port: UInt16
    private let listener: Int32
    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)

    /// `replies` are used in order; the last one repeats.
    init(replies: [Reply]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0 // the kernel picks a free port
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        state = Mutex(State(replies: replies))
        Thread { [self] in run() }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/hooks/alert")! }
    var requests: [Request] { state.withLock { $0.requests } }

    func stop() {
        state.withLock { $0.stop = true }
        finished.wait()
        close(listener)
    }

    private func run() {
        while !state.withLock({ $0.stop }) {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            serve(connection)
            close(connection)
        }
        finished.signal()
    }

    private func serve(_ connection: Int32) {
        var received: [UInt8] = []
        var headerEnd: Int?
        var continued = false
        var contentLength = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: received) {
                headerEnd = end + 4
                let head = String(decoding: received[..<end], as: UTF8.self)
                contentLength = Int(Self.headers(head)["content-length"] ?? "") ?? 0
                if !continued, Self.headers(head)["expect"]?.lowercased() == "100-continue" {
                    // curl asks before sending a larger body.
                    send(connection, "HTTP/1.1 100 Continue\r\n\r\n")
                    continued = true
                }
            }
            if let headerEnd, received.count >= headerEnd + contentLength { break }
            var pfd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { return }
            let n = read(connection, &chunk, chunk.count)
            guard n > 0 else { return }
            received += chunk[..<n]
        }
        let end = headerEnd!
        let head = String(decoding: received[..<(end - 4)], as: UTF8.self)
        let requestLine = head.split(separator: "\r\n").first.map { $0.split(separator: " ") } ?? []
        let request = Request(
            method: requestLine.first.map(String.init) ?? "", path: requestLine.dropFirst().first.map(String.init) ?? "",
            headers: Self.headers(head), body: Data(received[end..<(end + contentLength)]))
        let reply: Reply = state.withLock { state in
            state.requests.append(request)
            return state.replies.count > 1 ? state.replies.removeFirst() : state.replies[0]
        }
        if reply.status == 0 {
            var pfd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 10_000) // returns when the client closes
            return
        }
        var response = "HTTP/1.1 \(reply.status) Status\r\nContent-Length: 0\r\nConnection: close\r\n"
        for (name, value) in reply.headers { response += "\(name): \(value)\r\n" }
        send(connection, response + "\r\n")
    }

    private func send(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    }

    private static func headers(_ head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        return nil
    }
}
