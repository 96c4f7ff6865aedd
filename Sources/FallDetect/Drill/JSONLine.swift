import Foundation

/// Writes one JSON object per line with its keys in the order given, so drill output reads
/// naturally ("t" first) and diffs cleanly.
public enum JSONLine {
    public enum Value: Sendable {
        case string(String), number(Double), int(Int), bool(Bool)
    }

    public static func make(_ fields: [(String, Value)]) -> String {
        "{" + fields.map { "\(quote($0.0)):\(render($0.1))" }.joined(separator: ",") + "}"
    }

    public static func render(_ value: Value) -> String {
        switch value {
        case .string(let s): quote(s)
        case .int(let i): String(i)
        case .bool(let b): b ? "true" : "false"
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
