import FallDetect
import Foundation

extension BenchCommand {
    /// `--keychain N`: press-to-decision and reconnect times through a fake iTag.
    func runKeychain(presses: Int) throws {
        let out = Terminal.standardOutput
        out.write("Keychain path through a fake iTag over a socket pair, \(presses) presses per row, \(max(5, presses / 4)) drops\n\n")
        let bench = KeychainBench(presses: presses, drops: max(5, presses / 4))
        let rows = try Self.blocking { try await bench.run() }
        out.write("path                                                     count   p50 ms   p99 ms   max ms\n")
        for row in rows {
            out.write(Self.pad(row.path, 56) + Self.pad(String(row.count), 6, right: true)
                + Self.pad(ProgressLine.fixed(row.p50Microseconds / 1000, 2), 9, right: true)
                + Self.pad(ProgressLine.fixed(row.p99Microseconds / 1000, 2), 9, right: true)
                + Self.pad(ProgressLine.fixed(row.maxMicroseconds / 1000, 2), 9, right: true) + "\n")
        }
        if let att = rows.first, let peer = rows.last, peer.p50Microseconds > 0 {
            out.write("\nATT path / events only, p50: \(ProgressLine.fixed(att.p50Microseconds / peer.p50Microseconds, 1))×\n")
        }
        if let json {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { try encoder.encode(rows).write(to: URL(fileURLWithPath: json)) } catch {
                throw FallDetectError(.io, "cannot write the results: \(error)", path: json)
            }
        }
    }

    /// Runs async work from this synchronous command and waits for it.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try box.get()
    }
}

/// The result of work finished on another thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after it is waited on.
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { result = value }
    func get() throws -> T {
        guard let result else { throw FallDetectError(.noData, "the work never finished") }
        return try result.get()
    }
}
