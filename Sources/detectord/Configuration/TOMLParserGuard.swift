/// toml++ (the parser inside TOMLKit) asserts instead of reporting an error in two places the
/// `configuration` and `dataset-description` fuzz targets found (Fuzz/crashes): a table header
/// whose first key starts with a character no key may start with (`[!x]`, `[` then a line break),
/// a `}` inside an array (`a = [}]`), a Unicode line separator where a value starts
/// (`a = [<U+0085>2]`), a date followed by a space and one digit (`d = 1979-05-27 7`, a
/// date-time cut short), and a date whose `T` is not followed by a digit in a value with a colon
/// (`d = 1979-02-27t\u{2}o:`). The process aborts on such a file. Until TOMLKit reports
/// them, they are found here first, with a lexer just good enough to tell a table header from an
/// array value: strings, comments and the open brackets.
enum TOMLParserGuard {
    static let badTableName = "a table name starts with a letter, a digit, _, - or a quote"
    static let badClosing = "a closing bracket of the other kind: [ closes with ], { with }"
    static let badLineEnd = "a Unicode line separator (U+0085, U+2028 or U+2029) outside a string: TOML ends lines with a newline"
    static let badDateTime = "a date, a space and one digit: a date-time needs its whole time (1979-05-27 07:32:00)"
    static let badDateTimeT = "a date and a T without a time after it: a date-time needs its whole time (1979-05-27T07:32:00)"

    /// The 1-based line and column of the first place toml++ would abort on, and why; nil when
    /// there is none.
    static func firstAbort(in text: String) -> (line: Int, column: Int, reason: String)? {
        let scalars = Array(text.unicodeScalars)
        var i = 0, line = 1, lineStart = 0, onlyWhitespace = true
        var open: [Unicode.Scalar] = []
        func at(_ k: Int) -> Unicode.Scalar? { k < scalars.count ? scalars[k] : nil }
        /// Whether a value, not a key, starts at `k`: after `=`, or in an array after `[`, `,` or
        /// a line end. A bare key may look like a date and a t (`1979-02-27tx = "a:b"`).
        func startsAValue(_ k: Int) -> Bool {
            var j = k - 1
            while j >= 0, scalars[j] == " " || scalars[j] == "\t" { j -= 1 }
            guard j >= 0 else { return false }
            let p = scalars[j]
            return p == "=" || open.last == "[" && (p == "[" || p == "," || p == "\n" || p == "\r")
        }
        func starts(_ s: String, _ k: Int) -> Bool {
            s.unicodeScalars.enumerated().allSatisfy { at(k + $0.offset) == $0.element }
        }
        /// Skips a string opening at `i`; newlines inside multi-line strings are counted.
        func skipString() {
            let quote = scalars[i]
            let triple = starts(String(repeating: Character(quote), count: 3), i)
            i += triple ? 3 : 1
            while i < scalars.count {
                if quote == "\"" && scalars[i] == "\\" {
                    // An escape, or a line-ending backslash whose newline still counts.
                    if at(i + 1) == "\n" {
                        line += 1
                        lineStart = i + 2
                    }
                    i += 2
                    continue
                }
                if scalars[i] == quote {
                    guard triple else { i += 1; return }
                    // A multi-line string may end with one or two quotes of its own before the
                    // closing three (`""""` and `"""""` both close it): the run ends it, at most five.
                    var run = 0
                    while run < 5 && at(i + run) == quote { run += 1 }
                    i += run
                    if run >= 3 { return }
                    continue
                }
                if scalars[i] == "\n" {
                    if !triple { return }
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
        }
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "\n":
                line += 1
                lineStart = i + 1
                onlyWhitespace = true
                i += 1
            case " ", "\t":
                // Layout. toml++ reports any other blank here itself ("expected space or tab").
                i += 1
            case "\u{FEFF}" where i == 0:
                // The byte order mark, which the reader drops.
                i += 1
            case "\u{85}", "\u{2028}", "\u{2029}":
                // Unicode's line ends are no TOML whitespace, and where a value starts (in an
                // array: `[<U+0085>2]`) toml++ aborts on one. Outside strings and comments they
                // are an error wherever they stand.
                return (line, i - lineStart + 1, badLineEnd)
            case "\r", "\u{0B}", "\u{0C}":
                // Other line ends: counted as one here, which can only find more headers.
                onlyWhitespace = true
                i += 1
            case "#":
                while i < scalars.count && scalars[i] != "\n" { i += 1 }
            case "\"", "'":
                onlyWhitespace = false
                skipString()
            case "[" where open.isEmpty && onlyWhitespace:
                // A table header: `[` or `[[`, blanks, then the first key's first character.
                var k = i + 1
                let isArrayOfTables = at(k) == "["
                if isArrayOfTables { k += 1 }
                while let blank = at(k), blank == " " || blank == "\t" { k += 1 }
                // toml++ reports `[ [` and a non-ASCII blank itself, but a third `[` after `[[`
                // goes to the key parser.
                if let first = at(k), !isKeyStart(first) && !isBlank(first) || (isArrayOfTables && first == "[") {
                    return (line, k - lineStart + 1, badTableName)
                }
                onlyWhitespace = false
                while i < scalars.count && scalars[i] != "\n" { i += 1 }
            case "[", "{":
                open.append(c)
                onlyWhitespace = false
                i += 1
            case "]", "}":
                // A bracket that closes the other kind is never valid TOML, and `}` in an array is
                // where toml++ aborts.
                if let last = open.last, (last == "[") != (c == "]") { return (line, i - lineStart + 1, badClosing) }
                _ = open.popLast()
                onlyWhitespace = false
                i += 1
            default:
                if isDigit(c), i == 0 || startsValue(after: scalars[i - 1]) {
                    if isDateSpaceDigit(scalars, at: i) { return (line, i - lineStart + 1, badDateTime) }
                    if startsAValue(i), isDateTWithoutTime(scalars, at: i) { return (line, i - lineStart + 1, badDateTimeT) }
                }
                onlyWhitespace = false
                i += 1
            }
        }
        return nil
    }

    /// toml++ reads a value that looks like a date (ten characters, `_` not counted, with `-` fifth
    /// and eighth) followed by one space and a digit as a date-time with a space for its `T`, and
    /// aborts when the value ends right after that digit. Valid TOML never has that shape: the time
    /// goes on (`07:32:00`).
    private static func isDateSpaceDigit(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        var chars: [Unicode.Scalar] = []
        var k = start
        while k < scalars.count, !isValueTerminator(scalars[k]) {
            if scalars[k] != "_" { chars.append(scalars[k]) }
            if chars.count > 10 { return false }
            k += 1
        }
        guard chars.count == 10, chars[4] == "-", chars[7] == "-", k + 2 < scalars.count else { return false }
        return scalars[k] == " " && isDigit(scalars[k + 1]) && isValueTerminator(scalars[k + 2])
    }

    /// toml++ takes a value that starts with digits and has a `-`, a `T` (or `t`) and a `:` for
    /// a date-time, reads the date, then the time after the `T` assuming it starts with a digit,
    /// and aborts when it does not (`1979-02-27t<U+0002>o:`). Valid TOML never has a date's `T`
    /// without its time in a value (the caller asks only where a value starts).
    private static func isDateTWithoutTime(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        let shape = Array("dddd-dd-ddT".unicodeScalars)
        guard start + shape.count < scalars.count else { return false }
        for (offset, expected) in shape.enumerated() {
            let c = scalars[start + offset]
            switch expected {
            case "d": guard isDigit(c) else { return false }
            case "T": guard c == "T" || c == "t" else { return false }
            default: guard c == expected else { return false }
            }
        }
        guard !isDigit(scalars[start + shape.count]) else { return false }
        // The colon toml++'s scan would see, up to where it ends a value (128 scalars at most).
        var k = start
        while k < scalars.count, k - start < 128, !isValueTerminator(scalars[k]) {
            if scalars[k] == ":" { return true }
            k += 1
        }
        return false
    }

    /// Where toml++ ends a value: a blank, a line end of any kind, `]`, `}`, `,` or `#`.
    private static func isValueTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029, 0x5D, 0x7D, 0x2C, 0x23: true
        default: isBlank(c)
        }
    }

    /// Whether a value may start after this scalar: `=`, `[`, `{`, `,`, a space, a tab or a newline
    /// (toml++ reports any other blank before a value itself).
    private static func startsValue(after c: Unicode.Scalar) -> Bool {
        c == "=" || c == "[" || c == "{" || c == "," || c == " " || c == "\t" || c == "\n"
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// toml++'s horizontal whitespace: spaces, tabs and the non-ASCII ones of its own table
    /// (`is_non_ascii_horizontal_whitespace`), which differs from Unicode's: it has U+180E, U+200B,
    /// U+2060 and the BOM. Each ends a value; where layout is skipped it allows only space and tab.
    private static func isBlank(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x180E, 0x2000...0x200B, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// What toml++ lets a key start with, and what it reports on its own (`]`, `[`, the end).
    private static func isKeyStart(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-", "\"", "'", "]", "[": true
        default: false
        }
    }
}
