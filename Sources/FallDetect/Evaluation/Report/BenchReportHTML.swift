import Foundation

/// Renders a `BenchReport` as one HTML page with everything inline (CSS, SVG; no scripts, no
/// fonts, no links out), so it opens the same from a file, a mail or an archive years later.
/// Every string that came from data goes through `HTMLEscaper`.
struct BenchReportHTML {
    var report: BenchReport

    /// Inline only: the policy makes a browser refuse any load, so a page that slipped in an
    /// external reference would show it as broken instead of quietly reaching the network.
    static let policy = "default-src 'none'; style-src 'unsafe-inline'"

    static let style = """
        body{font-family:sans-serif;margin:2em auto;max-width:1180px;padding:0 1em;color:#222;line-height:1.4}
        h1{font-size:1.6em}h2{border-bottom:2px solid #444;margin-top:2em}h3{margin-top:1.6em}
        table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
        th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
        th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        tr:nth-child(even) td{background:#fafafa}
        figure{margin:.6em 0}svg{max-width:100%;height:auto}
        .muted{color:#666}code{font-size:.95em}
        section.detector{border-left:4px solid #ddd;padding-left:1em;margin-top:1.4em}
        """

    var page: String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(report.title))</title>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            <h1>\(e(report.title))</h1>
            <p class="muted">Generated \(e(report.generated)) by <code>\(e(report.command))</code>; the same content is in \
            <code>report.json</code> beside this page. Rates are percent here (fractions 0–1 in the JSON), latencies ms here (s in the JSON).</p>

            """
        out += "<nav><ul>\n"
        for (k, dataset) in report.datasets.enumerated() {
            out += "<li><a href=\"#dataset-\(k + 1)\">\(e(dataset.name))</a> (\(dataset.kind.rawValue), \(dataset.detectors.count) detector\(dataset.detectors.count == 1 ? "" : "s"))</li>\n"
        }
        out += "</ul></nav>\n"
        for (k, dataset) in report.datasets.enumerated() { out += section(dataset, id: "dataset-\(k + 1)") }
        return out + "</body>\n</html>\n"
    }

    func section(_ dataset: ReportDataset, id: String) -> String {
        var out = "<section class=\"dataset\" id=\"\(id)\" data-dataset=\"\(e(dataset.name))\" data-kind=\"\(dataset.kind.rawValue)\">\n"
        out += "<h2>\(e(dataset.name))</h2>\n<p>\(e(dataset.summary))</p>\n<p class=\"muted\">Read from <code>\(e(dataset.root))</code>.</p>\n"
        out += "<h3>Figures</h3>\n" + figures(dataset)
        out += "<h3>ROC</h3>\n"
        if dataset.kind == .trials, dataset.detectors.contains(where: { $0.roc.contains { $0.truePositiveRate != nil } || $0.operatingPoint != nil }) {
            out += "<p class=\"muted\">Each detector's threshold sweep (falls detected against ADL trials with a false alarm), its operating point, "
                + "and the share of trials with a detection per activity code.</p>\n"
            out += "<figure class=\"roc\">\n\(BenchPlot(dataset: dataset).svg)</figure>\n"
        } else {
            // No sweep over continuous recordings: each detector's operating point, with its interval.
            out += "<p class=\"muted\">No threshold sweep for this dataset: each detector's operating point, false alarms per hour with the 95 % interval.</p>\n"
            let bars = dataset.detectors.map {
                ReportBarChart.Bar(label: $0.name, value: $0.figures.falseAlarmsPerHour ?? 0, interval: $0.figures.falseAlarmsPerHourInterval)
            }
            out += "<figure class=\"roc operating-points\">\n\(ReportBarChart(bars: bars, unit: "false alarms per hour").svg)</figure>\n"
        }
        for d in dataset.detectors { out += detector(d, in: dataset) }
        return out + "</section>\n"
    }

    func figures(_ dataset: ReportDataset) -> String {
        let trials = dataset.kind == .trials
        let header = trials
            ? ["detector", "threshold", "trials (falls/ADL)", "SE %", "SE 95 %", "SP %", "SP 95 %", "AC %", "false alarms", "per hour", "per hour 95 %", "latency median ms", "latency p95 ms"]
            : ["detector", "hours", "false alarms", "per hour", "per hour 95 %", "removals with a detection", "falls found", "latency median ms", "latency p95 ms"]
        var out = "<table class=\"figures\">\n<thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for d in dataset.detectors {
            let f = d.figures
            let cells: [String] = trials
                ? [
                    num(f.threshold, 3), f.trials.map { "\($0) (\(f.falls ?? 0)/\(f.adls ?? 0))" } ?? "–", percent(f.sensitivity),
                    percentRange(f.sensitivityInterval), percent(f.specificity), percentRange(f.specificityInterval), percent(f.balancedAccuracy),
                    "\(f.falseAlarms)", num(f.falseAlarmsPerHour, 2), range(f.falseAlarmsPerHourInterval, 2), ms(f.latencyMedian), ms(f.latencyP95),
                ]
                : [
                    num(f.hours, 2), "\(f.falseAlarms)", num(f.falseAlarmsPerHour, 2), range(f.falseAlarmsPerHourInterval, 2),
                    f.removals.map { "\(f.removalsWithDetection ?? 0) of \($0)" } ?? "–",
                    f.falls.map { "\(percent(f.sensitivity)) % of \($0)" } ?? "no falls", ms(f.latencyMedian), ms(f.latencyP95),
                ]
            out += "<tr data-detector=\"\(e(d.name))\"><th scope=\"row\">\(e(d.name))</th>" + cells.map { "<td class=\"num\">\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    func detector(_ d: ReportDetector, in dataset: ReportDataset) -> String {
        var out = "<section class=\"detector\" data-detector=\"\(e(d.name))\">\n<h3>\(e(d.name)) on \(e(dataset.name))</h3>\n"
        out += "<h4>Detections per activity</h4>\n"
        if d.activities.isEmpty {
            out += "<p class=\"muted\">No detection.</p>\n"
        } else if dataset.kind == .trials {
            out += table(
                "activities", ["activity", "", "kind", "trials", "with a detection", "share %"],
                d.activities.map { a in
                    [a.activity, a.summary ?? "", a.isFall ? "fall (detected)" : "ADL (false alarm)", a.trials.map(String.init) ?? "–", "\(a.detections)",
                     a.trials.map { $0 > 0 ? num(Double(a.detections) / Double($0) * 100, 1) : "–" } ?? "–"]
                })
        } else {
            out += table("activities", ["activity", "detections"], d.activities.map { [$0.activity, "\($0.detections)"] })
            let bars = d.activities.map { ReportBarChart.Bar(label: $0.activity, value: Double($0.detections)) }
            out += "<figure class=\"activity-bars\">\n\(ReportBarChart(bars: bars, unit: "detections").svg)</figure>\n"
        }
        out += "<h4>Latency</h4>\n"
        if d.latencies.isEmpty {
            out += "<p class=\"muted\">No detected fall, so no latency.</p>\n"
        } else {
            out += "<figure class=\"latency\">\n\(LatencyHistogram(latencies: d.latencies, label: "\(d.name) latency").svg)"
                + "<figcaption>\(d.latencies.count) detected falls: median \(ms(d.figures.latencyMedian)) ms, p95 \(ms(d.figures.latencyP95)) ms from fall onset.</figcaption></figure>\n"
        }
        out += events("false-alarms", "False alarms", d.falseAlarms)
        if dataset.kind == .trials || !d.missedFalls.isEmpty { out += events("missed-falls", "Missed falls", d.missedFalls) }
        if dataset.kind == .continuous { out += events("removals", "Detections while the device was taken off", d.removalDetections) }
        return out + "</section>\n"
    }

    /// A list of events, folded when long so the page stays readable.
    func events(_ kind: String, _ title: String, _ list: [ReportEvent]) -> String {
        var out = "<h4>\(e(title)) (\(list.count))</h4>\n"
        guard !list.isEmpty else { return out + "<p class=\"muted\">None.</p>\n" }
        out += "<details\(list.count <= 50 ? " open" : "")><summary>\(list.count) listed</summary>\n"
        out += table(kind, ["recording", "time s", "activity"], list.map { [$0.recording, num($0.seconds, 2), $0.activity] })
        return out + "</details>\n"
    }

    func table(_ kind: String, _ header: [String], _ rows: [[String]]) -> String {
        var out = "<table class=\"\(kind)\">\n<thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows { out += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n" }
        return out + "</tbody>\n</table>\n"
    }

    func e(_ text: String) -> String { HTMLEscaper.escape(text) }
    func num(_ v: Double?, _ digits: Int) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "–" }
    func percent(_ v: Double?) -> String { num(v.map { $0 * 100 }, 2) }
    func percentRange(_ r: ReportInterval?) -> String { r.map { "\(percent($0.lower))–\(percent($0.upper))" } ?? "–" }
    func range(_ r: ReportInterval?, _ digits: Int) -> String { r.map { "\(num($0.lower, digits))–\(num($0.upper, digits))" } ?? "–" }
    func ms(_ seconds: Double?) -> String { seconds.map { String(Int(($0 * 1000).rounded())) } ?? "–" }
}
