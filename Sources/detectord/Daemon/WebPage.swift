import FallDetect
import Foundation
import Hummingbird
import NIOCore

/// The device's own page (`Sources/detectord/Web`): read once at start from the resource bundle
/// beside the binary or from the installed copy, and served with headers that keep it to itself
/// (its own content security policy, no framing, no sniffing, no referrer).
struct WebPage: Sendable {
    struct File: Sendable {
        var contentType: String
        var bytes: ByteBuffer
    }

    let files: [String: File]
    let folder: String

    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
                        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon"]

    /// Where the page may be, in order: the SwiftPM bundle beside the running executable, then the
    /// installed copies (`make install` puts it in PREFIX/share/detectord/web).
    static func searchPaths(executable: String?) -> [String] {
        var paths: [String] = []
        if let executable, let slash = executable.lastIndex(of: "/") {
            let directory = executable[..<slash]
            paths.append(directory + "/detectord_detectord.resources/Web")
            paths.append(directory + "/../share/detectord/web")
        }
        return paths + ["/usr/local/share/detectord/web", "/usr/share/detectord/web"]
    }

    /// Loads the first folder that has an index.html.
    static func load(searching paths: [String] = searchPaths(executable: RunningExecutable.path())) throws(FallDetectError) -> WebPage {
        guard let folder = paths.first(where: { FileManager.default.fileExists(atPath: $0 + "/index.html") }) else {
            throw FallDetectError(.noData, "the device's page is missing; searched " + paths.joined(separator: ", "), field: "web")
        }
        var files: [String: File] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names {
            let ext = String(name.split(separator: ".").last ?? "")
            guard let type = types[ext], let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
            files["/" + name] = File(contentType: type, bytes: ByteBuffer(bytes: data))
        }
        files["/"] = files["/index.html"]
        return WebPage(files: files, folder: folder)
    }

    /// The page's total size in bytes, for the README's figure.
    var totalBytes: Int { files.filter { $0.key != "/" }.values.reduce(0) { $0 + $1.bytes.readableBytes } }

    func add(to router: Router<DeviceRequestContext>) {
        for (path, file) in files {
            router.get(RouterPath(path)) { _, _ in
                Response(status: .ok, headers: [
                    .contentType: file.contentType, .cacheControl: "no-cache",
                    .init("X-Content-Type-Options")!: "nosniff", .init("X-Frame-Options")!: "DENY",
                    .init("Referrer-Policy")!: "no-referrer",
                    .init("Content-Security-Policy")!: "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
                ], body: ResponseBody(byteBuffer: file.bytes))
            }
        }
    }
}
