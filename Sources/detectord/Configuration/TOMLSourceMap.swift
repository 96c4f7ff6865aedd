/// Where each key and table header of a TOML text is, by dotted field (`sensor.rate_hz`,
/// `contacts[2].phone`), because TOMLKit gives positions for syntax errors only.
///
/// A small scanner, not a parser: it follows `[table]` and `[[array]]` headers and `key = value`
/// lines, and skips what cannot hold a key (comments, strings, the inside of multi-line strings and
/// arrays). It runs only on text TOMLKit has already accepted, so it needs no error handling.
struct TOMLSourceMap: Sendable {
    /// A key's or header's position; `valueColumn` is where its value starts (a header's own column).
    struct Entry: Sendable, Equatable {
        var line: Int
        var keyColumn: Int
        var valueColumn: Int
    }

    private(set) var entries: [String: Entry] = [:]

    init(text: String) {
        var scanner = Scanner()
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so both line ends are named.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            scanner.scan(Array(line), lineNumber: lineNumber, into: &entries)
        }
    }

    /// The entry of `field`, or of the nearest enclosing field the text names (an inline table's
    /// key, a table header), so that an issue inside `{ ... }` still points at its line.
    func entry(nearest field: String) -> Entry? {
        var field = field
        while true {
            if let entry = entries[field] { return entry }
            guard let cut = field.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            field = String(field[..<cut])
        }
    }

    /// The scanner's state between lines.
    private struct Scanner {
        /// The field prefix of the current table: "" at the top, "sensor.i2c", "contacts[2]".
        var table = ""
        /// How many `[[name]]` headers each array of tables has had so far.
        var arrayCounts: [String: Int] = [:]
        /// Open `[` and `{` of a value that continues on the next lines.
        var depth = 0
        /// The delimiter of a multi-line string still open (`"""` or `'''`).
        var openString: String?

        mutating func scan(_ chars: [Character], lineNumber: Int, into entries: inout [String: Entry]) {
            var i = 0
            if depth > 0 || openString != nil {
                skipValue(chars, from: &i)
                return
            }
            skipSpace(chars, &i)
            guard i < chars.count, chars[i] != "#", chars[i] != "\r" else { return }
            let column = i + 1
            if chars[i] == "[" {
                let isArray = i + 1 < chars.count && chars[i + 1] == "["
                i += isArray ? 2 : 1
                let keys = readKey(chars, &i)
                table = resolve(keys, isArrayHeader: isArray)
                let entry = Entry(line: lineNumber, keyColumn: column, valueColumn: column)
                entries[table] = entry
                // `[a.b]` opens `a` too, unless it has a header of its own.
                var prefix = table
                while let cut = prefix.lastIndex(of: ".") {
                    prefix = String(prefix[..<cut])
                    if entries[prefix] == nil { entries[prefix] = entry }
                }
                return
            }
            let keys = readKey(chars, &i)
            skipSpace(chars, &i)
            guard !keys.isEmpty, i < chars.count, chars[i] == "=" else { return }
            i += 1
            skipSpace(chars, &i)
            let valueColumn = i + 1
            var field = table
            for key in keys {
                field += field.isEmpty ? key : "." + key
                // Dotted keys open tables too: `i2c.bus = 1` locates `i2c` as well.
                if entries[field] == nil || key == keys.last {
                    entries[field] = Entry(line: lineNumber, keyColumn: column, valueColumn: valueColumn)
                }
            }
            skipValue(chars, from: &i)
        }

        /// The field of a header's dotted name, with the current index of every array of tables
        /// on the way.
        mutating func resolve(_ keys: [String], isArrayHeader: Bool) -> String {
            var field = ""
            for (n, key) in keys.enumerated() {
                field += field.isEmpty ? key : "." + key
                if isArrayHeader, n == keys.count - 1 {
                    let count = arrayCounts[field, default: 0] + 1
                    arrayCounts[field] = count
                    field += "[\(count)]"
                } else if let count = arrayCounts[field] {
                    field += "[\(count)]"
                }
            }
            return field
        }

        /// A dotted key of bare and quoted parts; stops at `=`, `]` or anything else.
        func readKey(_ chars: [Character], _ i: inout Int) -> [String] {
            var keys: [String] = []
            while true {
                skipSpace(chars, &i)
                guard i < chars.count else { return keys }
                if chars[i] == "\"" || chars[i] == "'" {
                    let quote = chars[i]
                    var key = ""
                    i += 1
                    while i < chars.count, chars[i] != quote {
                        if quote == "\"", chars[i] == "\\", i + 1 < chars.count { i += 1 }
                        key.append(chars[i])
                        i += 1
                    }
                    i += 1
                    keys.append(key)
                } else {
                    var key = ""
                    while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "-" {
                        key.append(chars[i])
                        i += 1
                    }
                    guard !key.isEmpty else { return keys }
                    keys.append(key)
                }
                skipSpace(chars, &i)
                guard i < chars.count, chars[i] == "." else { return keys }
                i += 1
            }
        }

        /// Walks a value (or the rest of one from an earlier line) to learn whether it ends on
        /// this line: brackets are counted outside strings, comments end the line.
        mutating func skipValue(_ chars: [Character], from i: inout Int) {
            while i < chars.count {
                if let delimiter = openString {
                    if matches(chars, i, delimiter) {
                        i += 3
                        openString = nil
                    } else {
                        if delimiter == "\"\"\"", chars[i] == "\\" { i += 1 }
                        i += 1
                    }
                    continue
                }
                let c = chars[i]
                if matches(chars, i, "\"\"\"") || matches(chars, i, "'''") {
                    openString = String(chars[i..<i + 3])
                    i += 3
                } else if c == "\"" || c == "'" {
                    i += 1
                    while i < chars.count, chars[i] != c {
                        if c == "\"", chars[i] == "\\" { i += 1 }
                        i += 1
                    }
                    i += 1
                } else if c == "#" {
                    return
                } else {
                    if c == "[" || c == "{" { depth += 1 }
                    if c == "]" || c == "}" { depth = max(0, depth - 1) }
                    i += 1
                }
            }
        }

        func matches(_ chars: [Character], _ i: Int, _ text: String) -> Bool {
            let pattern = Array(text)
            guard i + pattern.count <= chars.count else { return false }
            return Array(chars[i..<i + pattern.count]) == pattern
        }

        func skipSpace(_ chars: [Character], _ i: inout Int) {
            while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
        }
    }
}
