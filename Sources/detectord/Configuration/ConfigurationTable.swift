import TOMLKit

/// One TOML table while it is read: typed getters that report a missing, mistyped or out-of-range
/// value to the context and return nil, so a reader goes on and finds the file's other issues too.
struct ConfigurationTable {
    /// The dotted field of the table itself: "" at the top, "sensor.i2c", "contacts[2]".
    let field: String
    let table: TOMLTable
    let context: ConfigurationContext

    /// The dotted field of one of this table's keys.
    func field(_ key: String) -> String { field.isEmpty ? key : "\(field).\(key)" }

    func contains(_ key: String) -> Bool { table[key] != nil }

    /// Reports every key that is not in `known`, so a typo is an error rather than a setting
    /// silently left at its default.
    func rejectUnknownKeys(known: [String]) {
        for key in table.keys where !known.contains(key) {
            let hint = Self.closest(to: key, in: known).map { "did you mean \($0)?" }
                ?? "expected one of: \(known.joined(separator: ", "))"
            let what = table[key]?.type == .table ? "table" : "key"
            context.report(field(key), "unknown \(what) \"\(key)\"; \(hint)", at: .key)
        }
    }

    func missing(_ key: String, _ expected: String) {
        context.report(field(key), "is required: \(expected)", at: .key)
    }

    func string(_ key: String, required expected: String? = nil) -> String? {
        guard let value = value(key, required: expected) else { return nil }
        guard let text = value.string else { return wrongType(key, value, "text in quotes") }
        return text
    }

    /// A file or folder name, taken from the configuration file's folder when relative.
    func path(_ key: String, required expected: String? = nil) -> String? {
        guard let name = string(key, required: expected) else { return nil }
        guard !name.isEmpty else {
            context.report(field(key), "is empty; expected a file name")
            return nil
        }
        return context.resolve(name)
    }

    /// A number, written with or without a fraction, within `range`.
    func number(_ key: String, in range: ClosedRange<Double>, required expected: String? = nil) -> Double? {
        guard let value = value(key, required: expected) else { return nil }
        let expectedText = "a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
        guard let number = value.double ?? value.int.map(Double.init) else { return wrongType(key, value, expectedText) }
        guard range.contains(number) else {
            context.report(field(key), "is \(Self.text(number)); expected \(expectedText)")
            return nil
        }
        return number
    }

    /// A whole number within `range`; `hexadecimal` writes the range as 0x.. in messages.
    func integer(_ key: String, in range: ClosedRange<Int>, hexadecimal: Bool = false, required expected: String? = nil) -> Int? {
        guard let value = value(key, required: expected) else { return nil }
        func text(_ n: Int) -> String {
            guard hexadecimal else { return String(n) }
            let digits = String(n, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
        }
        let expectedText = "a whole number from \(text(range.lowerBound)) to \(text(range.upperBound))"
        guard let number = value.int else { return wrongType(key, value, expectedText) }
        guard range.contains(number) else {
            context.report(field(key), "is \(text(number)); expected \(expectedText)")
            return nil
        }
        return number
    }

    func bool(_ key: String) -> Bool? {
        guard let value = value(key, required: nil) else { return nil }
        guard let flag = value.bool else { return wrongType(key, value, "true or false") }
        return flag
    }

    /// One of an enumeration's names.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, required expected: String? = nil) -> Choice?
    where Choice.RawValue == String {
        guard let text = string(key, required: expected) else { return nil }
        return oneOf(key, text, Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }

    /// `text` when it is one of `names`; otherwise reports the names and returns nil.
    func oneOf(_ key: String, _ text: String, _ names: [String]) -> String? {
        guard names.contains(text) else {
            context.report(field(key), "\"\(text)\" is not one of \(names.joined(separator: ", "))")
            return nil
        }
        return text
    }

    func table(_ key: String, required expected: String? = nil) -> ConfigurationTable? {
        guard let value = value(key, required: expected) else { return nil }
        guard let table = value.table else { return wrongType(key, value, "a table ([\(field(key))])") }
        return ConfigurationTable(field: field(key), table: table, context: context)
    }

    /// An array of tables (`[[contacts]]`), each named `key[n]` from 1 as in the file.
    func tables(_ key: String) -> [ConfigurationTable] {
        guard let value = value(key, required: nil) else { return [] }
        guard let array = value.array else { return wrongType(key, value, "tables ([[\(field(key))]])") ?? [] }
        var tables: [ConfigurationTable] = []
        for (n, element) in array.enumerated() {
            let name = "\(field(key))[\(n + 1)]"
            guard let table = element.table else {
                context.report(name, "is \(Self.describe(element.type)); expected a table ([[\(field(key))]])")
                continue
            }
            tables.append(ConfigurationTable(field: name, table: table, context: context))
        }
        return tables
    }

    private func value(_ key: String, required expected: String?) -> TOMLValueConvertible? {
        guard let value = table[key] else {
            if let expected { missing(key, expected) }
            return nil
        }
        return value
    }

    private func wrongType<T>(_ key: String, _ value: TOMLValueConvertible, _ expected: String) -> T? {
        context.report(field(key), "is \(Self.describe(value.type)); expected \(expected)")
        return nil
    }

    static func describe(_ type: TOMLType) -> String {
        switch type {
        case .string: "text"
        case .int: "a whole number"
        case .double: "a number with a fraction"
        case .bool: "a boolean"
        case .table: "a table"
        case .array: "an array"
        case .date, .time, .dateTime: "a date or time"
        }
    }

    /// 200 rather than 200.0; 0.5 as it is.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The known key within two edits of `key`, for "did you mean".
    static func closest(to key: String, in known: [String]) -> String? {
        known.map { ($0, distance(key, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
