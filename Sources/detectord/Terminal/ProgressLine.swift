import FallDetect

/// Renders replay progress and summaries as single lines of text.
enum ProgressLine {
    static let barWidth = 24

    /// `[#########...............]  37%  walking (synthetic)  22.1/60.0 s  812 samples/s  peak |a| 1.48 g`
    static func live(_ p: ReplayProgress) -> String {
        let filled = Int((p.fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        return "[\(bar)] \(pad(Int((p.fraction * 100).rounded(.down)), 3))%  \(name(p))  "
            + "\(fixed(p.statistics.durationSeconds, 1))/\(fixed(p.totalSeconds, 1)) s  "
            + "\(rate(p.samplesPerSecond)) samples/s  peak |a| \(fixed(Double(p.statistics.peakAcceleration), 2)) g"
    }

    /// The line a finished recording leaves behind.
    static func summary(_ p: ReplayProgress) -> String {
        let s = p.statistics
        var text = "\(name(p))  \(fixed(s.durationSeconds, 1)) s  \(s.samples) samples  "
            + "peak |a| \(fixed(Double(s.peakAcceleration), 2)) g"
        if let at = s.peakTimestamp, let first = s.firstTimestamp {
            text += " at \(fixed(Double(at - first) / 1e9, 2)) s"
        }
        if s.fixes > 0 { text += "  \(s.fixes) fixes" }
        if s.events > 0 { text += "  \(s.events) events" }
        if s.detections > 0 { text += "  \(s.detections) detection\(s.detections == 1 ? "" : "s")" }
        return text
    }

    static func name(_ p: ReplayProgress) -> String {
        p.isSynthetic ? "\(p.title) (synthetic)" : p.title
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        // Beyond 1e12 the digits stop meaning anything (and Int would trap past 9.2e18).
        guard abs(value) < 1e12 else { return String(format: "%.3g", value) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(rounded) - whole * Int(scale)
        let sign = value < 0 && rounded > 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    /// 812, 81.2k, 8.12M
    static func rate(_ value: Double) -> String {
        switch value {
        case ..<10_000: String(Int(value.rounded()))
        case ..<10_000_000: fixed(value / 1e3, 1) + "k"
        default: fixed(value / 1e6, 1) + "M"
        }
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
