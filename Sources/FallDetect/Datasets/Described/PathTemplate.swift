/// A path built from a recording's own path, for the files that go with it:
/// `SisFall_enhanced/{parent}/{file}` names SisFall_dataset/SA01/D01_SA01_R01.txt's labels
/// SisFall_enhanced/SA01/D01_SA01_R01.txt.
///
/// Placeholders, all from the recording's path relative to the root: `{file}` its file name,
/// `{name}` the same without the extension, `{ext}` the extension without the dot, `{parent}` the
/// folder holding it, `{dir}` every folder above it (`a/b`), `{subject}` its subject. Anything
/// else is copied as it is; a brace that opens no placeholder is an error.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Placeholder: String, Sendable, Hashable, CaseIterable {
        case file, name, ext, parent, dir, subject
    }

    enum Part: Sendable, Hashable {
        case text(String)
        case placeholder(Placeholder)
    }

    public let description: String
    let parts: [Part]

    public init(_ text: String) throws(FallDetectError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw FallDetectError(.invalidArgument, "\"\(text)\": a brace opens no {placeholder}", field: "template")
            }
            let word = String(rest[rest.index(after: open)..<close])
            guard let placeholder = Placeholder(rawValue: word) else {
                let known = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                throw FallDetectError(.invalidArgument, "\"\(text)\": unknown placeholder {\(word)}; expected \(known)", field: "template")
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
        description = text
    }

    /// The path for the recording at `relativePath` (slash-separated) of `subject`.
    public func path(for relativePath: String, subject: String) -> String {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let file = components.last ?? ""
        let dot = file.lastIndex(of: ".")
        let name = dot.map { String(file[..<$0]) } ?? file
        let ext = dot.map { String(file[file.index(after: $0)...]) } ?? ""
        let folders = components.dropLast()
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .placeholder(.file): result += file
            case .placeholder(.name): result += name
            case .placeholder(.ext): result += ext
            case .placeholder(.parent): result += folders.last ?? ""
            case .placeholder(.dir): result += folders.joined(separator: "/")
            case .placeholder(.subject): result += subject
            }
        }
        return result
    }
}
