/// Horizontal bars with an optional interval whisker each, as SVG: detections per activity of a
/// continuous dataset, or each detector's false alarms per hour where there is no ROC sweep.
public struct ReportBarChart: Sendable {
    public struct Bar: Sendable {
        public var label: String
        public var value: Double
        public var interval: ReportInterval?

        public init(label: String, value: Double, interval: ReportInterval? = nil) {
            self.label = label
            self.value = value
            self.interval = interval
        }
    }

    public var bars: [Bar]
    /// What the values count, under the axis.
    public var unit: String

    public init(bars: [Bar], unit: String) {
        self.bars = bars
        self.unit = unit
    }

    public var svg: String {
        let (lx, pw, row) = (170.0, 360.0, 22.0)
        let height = 40 + Double(bars.count) * row
        let top = max(1e-9, bars.map { max($0.value, $0.interval?.upper ?? 0) }.max() ?? 1)
        func x(_ v: Double) -> Double { lx + max(0, v) / top * pw }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"600\" height=\"\(Int(height))\" viewBox=\"0 0 600 \(Int(height))\" "
            + "font-family=\"sans-serif\" font-size=\"11\">\n"
        for (i, bar) in bars.enumerated() {
            let y = 10 + Double(i) * row
            let label = HTMLEscaper.escape(bar.label)
            out += "<text x=\"\(lx - 6)\" y=\"\(Self.f(y + 13))\" text-anchor=\"end\">\(label)</text>"
            out += "<rect class=\"bar\" x=\"\(lx)\" y=\"\(Self.f(y + 2))\" width=\"\(Self.f(x(bar.value) - lx))\" height=\"14\" fill=\"#1f77b4\">"
                + "<title>\(label): \(Self.value(bar.value))</title></rect>"
            if let i = bar.interval {
                out += "<line class=\"interval\" x1=\"\(Self.f(x(i.lower)))\" y1=\"\(Self.f(y + 9))\" x2=\"\(Self.f(x(i.upper)))\" y2=\"\(Self.f(y + 9))\" stroke=\"black\"/>"
            }
            out += "<text x=\"\(Self.f(x(max(bar.value, bar.interval?.upper ?? 0)) + 4))\" y=\"\(Self.f(y + 13))\">\(Self.value(bar.value))</text>\n"
        }
        out += "<text x=\"\(lx + pw / 2)\" y=\"\(Self.f(height - 8))\" text-anchor=\"middle\">\(HTMLEscaper.escape(unit))</text>\n"
        return out + "</svg>\n"
    }

    static func f(_ v: Double) -> String { String((v * 10).rounded() / 10) }
    static func value(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String((v * 100).rounded() / 100) }
}
