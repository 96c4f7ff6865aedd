import Foundation

/// The bench's picture as a standalone SVG: a ROC panel (each detector's threshold sweep, its
/// operating point, and published points for comparison) and a bar panel (per activity code, the
/// share of trials with a detection: false alarms for ADL codes, detected falls for fall codes).
public struct BenchPlot: Sendable {
    public struct Curve: Sendable {
        public var name: String
        public var points: [OperatingPoint]
        public var operatingPoint: OperatingPoint?
        public var perActivity: [String: ConfusionCounts]

        public init(name: String, points: [OperatingPoint], operatingPoint: OperatingPoint?, perActivity: [String: ConfusionCounts]) {
            self.name = name
            self.points = points
            self.operatingPoint = operatingPoint
            self.perActivity = perActivity
        }
    }

    /// A published result to mark: sensitivity and specificity in 0…1.
    public struct PublishedPoint: Sendable, Hashable, Codable {
        public var label: String
        public var sensitivity: Double
        public var specificity: Double

        public init(label: String, sensitivity: Double, specificity: Double) {
            self.label = label
            self.sensitivity = sensitivity
            self.specificity = specificity
        }
    }

    /// Sucerquia et al. 2017 (trial protocol, threshold on the trial's maximum): Table 5 and Table 7.
    public static let publishedPoints = [
        PublishedPoint(label: "C8, paper, young", sensitivity: 0.9554, specificity: 0.9638),
        PublishedPoint(label: "C8, paper, elderly", sensitivity: 0.8533, specificity: 0.9810),
        PublishedPoint(label: "C9, paper, no missed falls", sensitivity: 0.9999, specificity: 0.6797),
    ]

    public var title: String
    public var curves: [Curve]
    public var published: [PublishedPoint]

    public init(title: String, curves: [Curve], published: [PublishedPoint] = BenchPlot.publishedPoints) {
        self.title = title
        self.curves = curves
        self.published = published
    }

    static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]

    /// ROC axes: false positive rate 0–40 %, sensitivity 60–100 %, where every detector worth
    /// comparing lies; curves are drawn inside, operating points outside are pinned to the edge.
    static let fprRange = (0.0, 0.4)
    static let seRange = (0.6, 1.0)

    public var svg: String {
        let width = 1120.0, height = 900.0
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Int(width / 2))" y="28" text-anchor="middle" font-size="17">\(Self.escape(title))</text>

            """
        // ROC panel.
        let (rx, ry, rw, rh) = (80.0, 60.0, 540.0, 360.0)
        func x(_ fpr: Double) -> Double { rx + (min(max(fpr, Self.fprRange.0), Self.fprRange.1) - Self.fprRange.0) / (Self.fprRange.1 - Self.fprRange.0) * rw }
        func y(_ se: Double) -> Double { ry + rh - (min(max(se, Self.seRange.0), Self.seRange.1) - Self.seRange.0) / (Self.seRange.1 - Self.seRange.0) * rh }
        out += "<rect x=\"\(rx)\" y=\"\(ry)\" width=\"\(rw)\" height=\"\(rh)\" fill=\"none\" stroke=\"#444\"/>\n"
        for i in 0...8 {
            let f = Self.fprRange.0 + Double(i) * 0.05
            out += "<line x1=\"\(Self.f(x(f)))\" y1=\"\(ry)\" x2=\"\(Self.f(x(f)))\" y2=\"\(ry + rh)\" stroke=\"#eee\"/>"
            out += "<text x=\"\(Self.f(x(f)))\" y=\"\(ry + rh + 18)\" text-anchor=\"middle\">\(Int((f * 100).rounded()))</text>\n"
        }
        for i in 0...8 {
            let s = Self.seRange.0 + Double(i) * 0.05
            out += "<line x1=\"\(rx)\" y1=\"\(Self.f(y(s)))\" x2=\"\(rx + rw)\" y2=\"\(Self.f(y(s)))\" stroke=\"#eee\"/>"
            out += "<text x=\"\(rx - 8)\" y=\"\(Self.f(y(s) + 4))\" text-anchor=\"end\">\(Int((s * 100).rounded()))</text>\n"
        }
        out += "<text x=\"\(rx + rw / 2)\" y=\"\(ry + rh + 40)\" text-anchor=\"middle\">ADL trials with a false alarm, % (1 − specificity)</text>\n"
        out += "<text transform=\"translate(\(rx - 50) \(ry + rh / 2)) rotate(-90)\" text-anchor=\"middle\">falls detected, % (sensitivity)</text>\n"
        for (k, curve) in curves.enumerated() {
            let colour = Self.colours[k % Self.colours.count]
            // The curve is drawn where it lies in the frame; clipping it would draw false edges.
            let inside = curve.points.filter {
                1 - $0.specificity <= Self.fprRange.1 && $0.sensitivity >= Self.seRange.0
            }
            let points = inside.map { "\(Self.f(x(1 - $0.specificity))),\(Self.f(y($0.sensitivity)))" }.joined(separator: " ")
            out += "<polyline class=\"curve\" data-detector=\"\(Self.escape(curve.name))\" points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            if let p = curve.operatingPoint {
                out += "<circle class=\"operating-point\" cx=\"\(Self.f(x(1 - p.specificity)))\" cy=\"\(Self.f(y(p.sensitivity)))\" r=\"6\" fill=\"\(colour)\" stroke=\"black\"/>\n"
            }
        }
        for p in published {
            let (px, py) = (x(1 - p.specificity), y(p.sensitivity))
            out += "<path class=\"published\" d=\"M\(Self.f(px - 6)) \(Self.f(py - 6)) L\(Self.f(px + 6)) \(Self.f(py + 6)) M\(Self.f(px - 6)) \(Self.f(py + 6)) L\(Self.f(px + 6)) \(Self.f(py - 6))\" stroke=\"black\" stroke-width=\"2\"/>"
            out += "<text x=\"\(Self.f(px + 9))\" y=\"\(Self.f(py + 4))\" font-size=\"11\">\(Self.escape(p.label))</text>\n"
        }
        // Legend.
        var ly = ry + 10
        for (k, curve) in curves.enumerated() {
            let colour = Self.colours[k % Self.colours.count]
            var label = curve.name
            if let p = curve.operatingPoint {
                label += ": SE \(Self.f(p.sensitivity * 100, 2)) %, SP \(Self.f(p.specificity * 100, 2)) %, \(Self.f(p.falseAlarmsPerHour, 2)) false alarms/h"
            }
            out += "<line x1=\"640\" y1=\"\(ly)\" x2=\"670\" y2=\"\(ly)\" stroke=\"\(colour)\" stroke-width=\"3\"/><text x=\"676\" y=\"\(ly + 4)\" font-size=\"12\">\(Self.escape(label))</text>\n"
            ly += 22
        }
        out += "<text x=\"640\" y=\"\(ly + 4)\" font-size=\"12\">× published (paper's trial protocol)</text>\n"
        out += "<text x=\"640\" y=\"\(ly + 24)\" font-size=\"12\">● operating point</text>\n"

        // Bars per activity code.
        let codes = Set(curves.flatMap { $0.perActivity.keys }).sorted { ($0.hasPrefix("D") ? 0 : 1, $0) < ($1.hasPrefix("D") ? 0 : 1, $1) }
        let (bx, by, bw, bh) = (80.0, 510.0, 880.0, 300.0)
        out += "<text x=\"\(bx)\" y=\"\(by - 16)\">Trials with a detection per activity code, % (ADL D: false alarms; falls F: detected)</text>\n"
        out += "<rect x=\"\(bx)\" y=\"\(by)\" width=\"\(bw)\" height=\"\(bh)\" fill=\"none\" stroke=\"#444\"/>\n"
        for i in 0...4 {
            let v = Double(i) * 25
            let yy = by + bh - v / 100 * bh
            out += "<line x1=\"\(bx)\" y1=\"\(Self.f(yy))\" x2=\"\(bx + bw)\" y2=\"\(Self.f(yy))\" stroke=\"#eee\"/><text x=\"\(bx - 8)\" y=\"\(Self.f(yy + 4))\" text-anchor=\"end\">\(Int(v))</text>\n"
        }
        if !codes.isEmpty {
            let slot = bw / Double(codes.count)
            let barWidth = slot * 0.8 / Double(max(1, curves.count))
            for (i, code) in codes.enumerated() {
                let left = bx + Double(i) * slot + slot * 0.1
                for (k, curve) in curves.enumerated() {
                    guard let c = curve.perActivity[code], c.trials > 0 else { continue }
                    let share = Double(c.triggered) / Double(c.trials)
                    let barHeight = share * bh
                    out += "<rect class=\"bar\" data-code=\"\(Self.escape(code))\" data-detector=\"\(Self.escape(curve.name))\" x=\"\(Self.f(left + Double(k) * barWidth))\" y=\"\(Self.f(by + bh - barHeight))\" width=\"\(Self.f(barWidth))\" height=\"\(Self.f(barHeight))\" fill=\"\(Self.colours[k % Self.colours.count])\"><title>\(Self.escape(code)) \(Self.escape(curve.name)): \(c.triggered)/\(c.trials)</title></rect>"
                }
                out += "<text x=\"\(Self.f(left + slot * 0.4))\" y=\"\(by + bh + 16)\" text-anchor=\"middle\" font-size=\"10\" transform=\"rotate(-60 \(Self.f(left + slot * 0.4)) \(by + bh + 16))\">\(Self.escape(code))</text>\n"
            }
        }
        out += "</svg>\n"
        return out
    }

    static func f(_ v: Double, _ digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        return r == r.rounded() && digits <= 1 ? String(Int(r)) : "\(r)"
    }

    static func escape(_ text: String) -> String { HTMLEscaper.escape(text) }
}
