extension BenchPlot {
    /// A trial dataset's ROC curves and detections per activity, drawn as the bench's --plot
    /// draws them; the report's figures are turned back into what BenchPlot takes.
    init(dataset: ReportDataset) {
        let curves = dataset.detectors.map { d in
            Curve(
                name: d.name, points: d.roc.compactMap(Self.operatingPoint), operatingPoint: d.operatingPoint.flatMap(Self.operatingPoint),
                perActivity: Dictionary(
                    d.activities.compactMap { a in
                        a.trials.map { trials in
                            let hit = min(a.detections, trials)
                            return (
                                a.activity,
                                a.isFall
                                    ? ConfusionCounts(fallsDetected: hit, fallsMissed: trials - hit, adlsCleared: 0, falseAlarms: 0)
                                    : ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: trials - hit, falseAlarms: hit)
                            )
                        }
                    }, uniquingKeysWith: { a, _ in a }))
        }
        self.init(title: dataset.name, curves: curves, published: dataset.references)
    }

    static func operatingPoint(_ p: ReportROCPoint) -> OperatingPoint? {
        guard let tpr = p.truePositiveRate, let fpr = p.falsePositiveRate else { return nil }
        return OperatingPoint(threshold: Float(p.threshold ?? 0), sensitivity: tpr, specificity: 1 - fpr, falseAlarmsPerHour: p.falseAlarmsPerHour ?? 0)
    }
}
