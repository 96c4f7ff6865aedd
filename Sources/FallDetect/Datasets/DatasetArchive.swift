import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A dataset archive (`.tar.xz`) unpacked once into a cache folder, on first use.
///
/// Parallel test processes and benchmarks may ask at the same time, so the unpacking runs under
/// an exclusive `flock` on `<destination>/.<archive>.lock`; a marker file written only after
/// `tar` succeeded (holding the archive's size and mtime) tells later callers there is nothing
/// to do, and a changed archive is unpacked again.
public struct DatasetArchive: Sendable {
    public let archivePath: String
    public let destination: String

    public init(archivePath: String, destination: String) {
        self.archivePath = archivePath
        self.destination = destination
    }

    var archiveName: String { String(archivePath.split(separator: "/").last ?? "archive") }
    public var markerPath: String { "\(destination)/.\(archiveName).unpacked" }
    var lockPath: String { "\(destination)/.\(archiveName).lock" }

    /// True when the marker matches the archive as it is now.
    public var isUnpacked: Bool {
        guard let want = markerText(), let have = try? String(contentsOfFile: markerPath, encoding: .utf8) else {
            return false
        }
        return want == have
    }

    /// Unpacks into `destination` unless already done; returns `destination`.
    @discardableResult
    public func unpack() throws -> String {
        guard markerText() != nil else {
            throw FallDetectError(.noData, "archive not found", path: archivePath)
        }
        if isUnpacked { return destination }
        try TrialCache.makeDirectories(destination)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw FallDetectError.io("cannot open lock file", path: lockPath, errno: errno) }
        defer { close(fd) }  // closing releases the lock
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw FallDetectError.io("cannot lock", path: lockPath, errno: errno) }
        }
        if isUnpacked { return destination }  // another process finished while we waited
        unlink(markerPath)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xJf", archivePath, "-C", destination]
        let errors = Pipe()
        tar.standardError = errors
        do {
            try tar.run()
        } catch {
            throw FallDetectError(.io, "cannot run tar: \(error)", path: archivePath)
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        tar.waitUntilExit()
        guard tar.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw FallDetectError(.io, "tar -xJf failed (status \(tar.terminationStatus)): \(text)", path: archivePath)
        }
        guard let marker = markerText() else {
            throw FallDetectError(.noData, "archive vanished while unpacking", path: archivePath)
        }
        let temporary = markerPath + ".tmp"
        do {
            try marker.write(toFile: temporary, atomically: false, encoding: .utf8)
        } catch {
            throw FallDetectError(.io, "cannot write marker: \(error)", path: temporary)
        }
        if rename(temporary, markerPath) != 0 {
            throw FallDetectError.io("cannot write marker", path: markerPath, errno: errno)
        }
        return destination
    }

    /// What the marker holds for the archive as it is now; nil when the archive is missing.
    func markerText() -> String? {
        guard let stamp = TrialCache.stamp(archivePath) else { return nil }
        return "\(archiveName) size=\(stamp.size) mtime=\(stamp.mtime)\n"
    }
}
