import Foundation

/// A detector's latencies (fall onset to detection) as an SVG histogram, with the median and
/// 95th percentile marked: the spread a single median hides.
public struct LatencyHistogram: Sendable {
    /// Seconds.
    public var latencies: [Double]
    public var label: String

    public init(latencies: [Double], label: String) {
        self.latencies = latencies.filter(\.isFinite)
        self.label = label
    }

    /// Bin widths in ms a reader can add up in their head; the smallest giving at most 24 bins.
    static let widths: [Double] = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000]

    /// The bins: start (ms), width (ms) and count; empty without latencies.
    public var bins: [(start: Double, width: Double, count: Int)] {
        let ms = latencies.map { $0 * 1000 }
        guard let low = ms.min(), let high = ms.max() else { return [] }
        let width = Self.widths.first { ((high - (low / $0).rounded(.down) * $0) / $0).rounded(.down) + 1 <= 24 } ?? Self.widths.last ?? 1000
        let origin = (low / width).rounded(.down) * width
        let count = Int(((high - origin) / width).rounded(.down)) + 1
        var bins = (0..<count).map { (start: origin + Double($0) * width, width: width, count: 0) }
        for v in ms { bins[min(count - 1, Int(((v - origin) / width).rounded(.down)))].count += 1 }
        return bins
    }

    public var svg: String {
        let (width, height) = (560.0, 240.0)
        let (px, py, pw, ph) = (50.0, 20.0, 490.0, 170.0)
        let bins = bins
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\" "
            + "aria-label=\"\(HTMLEscaper.escape(label))\">\n"
        out += "<rect x=\"\(px)\" y=\"\(py)\" width=\"\(pw)\" height=\"\(ph)\" fill=\"none\" stroke=\"#444\"/>\n"
        guard let first = bins.first, let last = bins.last else { return out + "</svg>\n" }
        let (low, high) = (first.start, last.start + last.width)
        let top = Double(max(1, bins.map(\.count).max() ?? 1))
        func x(_ ms: Double) -> Double { px + (ms - low) / (high - low) * pw }
        let slot = pw / Double(bins.count)
        for (i, bin) in bins.enumerated() {
            let h = Double(bin.count) / top * ph
            out += "<rect class=\"bin\" x=\"\(Self.f(px + Double(i) * slot + 1))\" y=\"\(Self.f(py + ph - h))\" width=\"\(Self.f(max(1, slot - 2)))\" "
                + "height=\"\(Self.f(h))\" fill=\"#1f77b4\"><title>\(Self.f(bin.start))–\(Self.f(bin.start + bin.width)) ms: \(bin.count)</title></rect>\n"
        }
        // Label every k-th edge so labels never overlap.
        let step = max(1, Int((Double(bins.count) / 8).rounded(.up)))
        for i in stride(from: 0, through: bins.count, by: step) {
            let edge = low + Double(i) * first.width
            out += "<text x=\"\(Self.f(x(edge)))\" y=\"\(py + ph + 14)\" text-anchor=\"middle\">\(Self.f(edge))</text>\n"
        }
        out += "<text x=\"\(px - 6)\" y=\"\(py + 4)\" text-anchor=\"end\">\(Int(top))</text><text x=\"\(px - 6)\" y=\"\(py + ph)\" text-anchor=\"end\">0</text>\n"
        out += "<text x=\"\(px + pw / 2)\" y=\"\(py + ph + 32)\" text-anchor=\"middle\">latency from fall onset, ms (falls per bin)</text>\n"
        for (name, q, colour) in [("median", 0.5, "#d62728"), ("p95", 0.95, "#ff7f0e")] {
            guard let v = OnlineProtocolResult.percentile(latencies, q) else { continue }
            let lx = Self.f(x(v * 1000))
            out += "<line class=\"\(name)\" x1=\"\(lx)\" y1=\"\(py)\" x2=\"\(lx)\" y2=\"\(py + ph)\" stroke=\"\(colour)\" stroke-dasharray=\"4 3\"/>"
            out += "<text x=\"\(lx)\" y=\"\(py - 6)\" text-anchor=\"middle\" fill=\"\(colour)\">\(name) \(Self.f(v * 1000))</text>\n"
        }
        return out + "</svg>\n"
    }

    static func f(_ v: Double) -> String { String(Int(v.rounded())) }
}
