import ArgumentParser
import FallDetect
import Foundation

/// `bench --dataset A --root X --dataset B --root Y …`: each dataset as its own run would report
/// it, then one row per dataset and detector, and one report holding them all.
extension BenchCommand {
    func runSeveral() throws {
        let out = Terminal.standardOutput
        Self.gathered.withLock { $0 = [] }
        defer { Self.gathered.withLock { $0 = nil } }
        for (k, copy) in each().enumerated() {
            if k > 0 { out.write("\n") }
            try copy.run()
        }
        let parts = Self.gathered.withLock { $0 ?? [] }
        out.write("\n" + Self.severalTable(parts))
        if reportDirectory != nil {
            Self.gathered.withLock { $0 = nil }
            try writeReport(parts)
        }
    }

    /// A row per dataset and detector: sensitivity and specificity where there are falls, false
    /// alarms per hour of daily activity everywhere.
    static func severalTable(_ parts: [ReportDataset]) -> String {
        func percent(_ value: Double?) -> String { value.map { ProgressLine.fixed($0 * 100, 2) } ?? "-" }
        var text = padded("dataset", 28) + padded("detector", 28) + padded("SE %", 8) + padded("SP %", 8) + padded("false alarms/h", 16) + "removals with a detection\n"
        for part in parts {
            for d in part.detectors {
                let f = d.figures
                let removals = part.kind == .continuous ? "\(Set(d.removalDetections.map(\.recording)).count)" : "-"
                text += padded(part.name, 28) + padded(d.name, 28) + padded(percent(f.sensitivity), 8) + padded(percent(f.specificity), 8)
                    + padded(f.falseAlarmsPerHour.map { ProgressLine.fixed($0, 2) } ?? "-", 16) + removals + "\n"
            }
        }
        return text
    }
}
