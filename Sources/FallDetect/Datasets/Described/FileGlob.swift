import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A path pattern relative to a folder, one shell pattern per path component (`*`, `?`, `[...]`,
/// as fnmatch reads them): `recordings/*.csv`, `SisFall_dataset/*/*.txt`. A wildcard never
/// crosses a `/`, and names starting with a dot match only a pattern that starts with one.
public struct FileGlob: Sendable, Hashable, CustomStringConvertible {
    public let description: String
    let components: [String]

    public init(_ pattern: String) throws(FallDetectError) {
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !pattern.hasPrefix("/"), !components.isEmpty, !components.contains(".."), !components.contains("**") else {
            throw FallDetectError(
                .invalidArgument, "\"\(pattern)\": expected a relative path pattern such as recordings/*.csv (no leading /, no .., no **)",
                field: "files")
        }
        self.components = components
        description = pattern
    }

    /// The regular files under `root` that match, as paths relative to it, sorted.
    public func matches(in root: String) -> [String] {
        var found: [String] = [""]
        for (n, component) in components.enumerated() {
            let last = n == components.count - 1
            var next: [String] = []
            for folder in found {
                let folderPath = folder.isEmpty ? root : "\(root)/\(folder)"
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
                for name in names.sorted() where fnmatch(component, name, FNM_PERIOD) == 0 {
                    let relative = folder.isEmpty ? name : "\(folder)/\(name)"
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: "\(root)/\(relative)", isDirectory: &isDirectory) else { continue }
                    if isDirectory.boolValue != last { next.append(relative) }
                }
            }
            found = next
        }
        return found.sorted()
    }
}
