import FallDetect
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite struct BenchCommandTests {
    /// The unpacked SisFall development split, unpacking it on first use; nil (a failure under
    /// CI=true, a SKIPPED line otherwise) when ../shared/datasets is absent.
    func sisFallRoot() throws -> String? {
        try SharedDatasets.unpacked("sisfall-dev.tar.xz", "sisfall")
    }

    /// A SisFall-shaped folder holding two young subjects (symlinks) and one elderly one.
    func subset(of root: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
        let raw = dir.appendingPathComponent("SisFall_dataset")
        try FileManager.default.createDirectory(at: raw, withIntermediateDirectories: true)
        for subject in ["SA01", "SA02", "SE01"] {
            try FileManager.default.createSymbolicLink(
                atPath: raw.appendingPathComponent(subject).path, withDestinationPath: "\(root)/SisFall_dataset/\(subject)")
        }
        return dir
    }

    @Test func writesTheReportForASubset() throws {
        guard let root = try sisFallRoot() else { return }
        let dir = try subset(of: root)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("bench.json")
        let output = try DetectordProcess.run([
            "bench", "--dataset", "sisfall", "--root", dir.path, "--detector", "c8", "--protocol", "trial",
            "--folds", "3", "--json", json.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("C8"))
        #expect(output.standardOutput.contains("3 subjects"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(report["dataset"] as? String == "sisfall")
        #expect(report["root"] as? String == dir.path)
        let trials = try #require(report["trials"] as? Int)
        let falls = try #require(report["falls"] as? Int)
        let adls = try #require(report["adls"] as? Int)
        #expect(falls == 150 && trials == falls + adls)
        #expect((report["adl_hours"] as? Double ?? 0) > 0.5)
        let detectors = try #require(report["detectors"] as? [[String: Any]])
        #expect(detectors.count == 1)
        let c8 = try #require(detectors.first)
        #expect(c8["name"] as? String == "C8")
        #expect(c8["protocol"] as? String == "trial")
        #expect(c8["folds"] as? Int == 3)
        for key in ["sensitivity", "specificity", "balanced_accuracy"] {
            let value = try #require(c8[key] as? Double, "\(key)")
            #expect(value > 0.5 && value <= 1, "\(key) \(value)")
        }
        let perFold = try #require(c8["fold_balanced_accuracy"] as? [Any])
        #expect(perFold.count == 3)
        // SE01 never fell: its fold has no AC, written as null.
        #expect(perFold.contains { $0 is NSNull })
        let groups = try #require(c8["by_group"] as? [String: [String: Any]])
        #expect(groups["young"]?["falls"] as? Int == 150)
        #expect(groups["elderly"]?["sensitivity"] is NSNull)
        #expect(groups["elderly"]?["specificity"] is Double)
        #expect(groups["elderly"]?["false_alarms_per_hour"] is Double)
        // A trial decision comes after the trial: no latency, said as null.
        #expect((c8["latency_ms"] as? [String: Any])?["median"] is NSNull)
        let hours = try #require(report["adl_hours"] as? Double)
        let flaggedAdl = Double(try #require(groups["young"]?["adls"] as? Int) + (try #require(groups["elderly"]?["adls"] as? Int)))
            * (1 - (try #require(c8["specificity"] as? Double)))
        #expect(abs((c8["false_alarms_per_hour"] as? Double ?? -1) - flaggedAdl / hours) < 1e-6)
        let perActivity = try #require(c8["per_activity"] as? [String: [String: Int]])
        #expect(perActivity["F01"]?["trials"] == 10)
        #expect(perActivity.values.reduce(0) { $0 + ($1["trials"] ?? 0) } == trials)
        #expect(perActivity.keys.contains("D19"))
        let samples = try #require(c8["samples"] as? Int)
        #expect(samples > 1_000_000)
        #expect((c8["seconds"] as? Double ?? 0) > 0)
        #expect((c8["samples_per_second"] as? Double ?? 0) > 0)
    }

    /// The online protocol on a subset, cross-validated, with JSON and the plot: every field the
    /// report promises, counts that add up, and an SVG that parses with one curve per detector.
    @Test func onlineProtocolWritesTheReportAndThePlot() throws {
        guard let root = try sisFallRoot() else { return }
        let dir = try subset(of: root)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The subset links SisFall_enhanced too, for the labels.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("SisFall_enhanced"), withIntermediateDirectories: true)
        for subject in ["SA01", "SA02", "SE01"] {
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent("SisFall_enhanced/\(subject)").path,
                withDestinationPath: "\(root)/SisFall_enhanced/\(subject)")
        }
        let json = dir.appendingPathComponent("online.json")
        let svg = dir.appendingPathComponent("online.svg")
        let output = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--train", "--folds", "3", "--json", json.path, "--plot", svg.path,
            "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("online protocol, 3 folds by subject"))
        #expect(output.standardOutput.contains("(the learned model also on its falls softened to 0.50)"))
        // Three subjects in three folds: a pair of folds leaves only SE01, who never fell, to train
        // on, so the stages' choice cannot be nested and says so.
        #expect(output.standardError.contains("note: the stages' settings are chosen on out-of-fold scores without nesting"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(report["protocol"] as? String == "online")
        let falls = try #require(report["falls"] as? Int)
        let adls = try #require(report["adls"] as? Int)
        #expect(falls == 150 && report["trials"] as? Int == falls + adls)
        let hours = try #require(report["adl_hours"] as? Double)
        let detectors = try #require(report["detectors"] as? [[String: Any]])
        let names = ["c8", "multiphase", "learned", "learned+stillness", "learned+recovery", "learned+stillness+recovery"]
        #expect(detectors.map { $0["name"] as? String } == names)
        for d in detectors {
            let name = d["name"] as? String ?? "?"
            #expect(d["protocol"] as? String == "online")
            let se = try #require(d["sensitivity"] as? Double, "\(name)")
            let sp = try #require(d["specificity"] as? Double, "\(name)")
            #expect(abs((d["balanced_accuracy"] as? Double ?? 0) - (se + sp) / 2) < 1e-12)
            // False alarms per hour is the count over the hours of ADL.
            let alarms = try #require(d["false_alarms"] as? Int)
            #expect(abs((d["false_alarms_per_hour"] as? Double ?? -1) - Double(alarms) / hours) < 1e-9)
            let latency = try #require(d["latency_ms"] as? [String: Double])
            let median = try #require(latency["median"]), p95 = try #require(latency["p95"])
            #expect(median > 0 && median <= p95, "\(name) \(latency)")
            let groups = try #require(d["by_group"] as? [String: [String: Any]])
            #expect(groups["young"]?["falls"] as? Int == 150)
            #expect(groups["elderly"]?["sensitivity"] is NSNull)
            #expect(groups["elderly"]?["false_alarms_per_hour"] is Double)
            #expect((groups["young"]?["latency_ms"] as? [String: Double])?["median"] != nil)
            #expect(d["samples"] as? Int ?? 0 > 1_000_000)
            #expect(d["samples_per_second"] as? Double ?? 0 > 0)
            #expect(d["cross_validated"] as? Bool == true)
            // Every ADL trial with a detection and every missed fall, by name.
            let named = try #require(d["false_alarm_trials"] as? [String], "\(name)")
            let missed = try #require(d["missed_falls"] as? [String], "\(name)")
            #expect(named.count == adls - Int((sp * Double(adls)).rounded()), "\(name) \(named)")
            #expect(missed.count == falls - Int((se * Double(falls)).rounded()), "\(name) \(missed)")
            #expect(named.allSatisfy { $0.hasPrefix("D") } && missed.allSatisfy { $0.hasPrefix("F") })
            // 95 % intervals around each figure (three subjects: wide, but they hold the figure).
            let intervals = try #require(d["intervals"] as? [String: Any], "\(name)")
            #expect(intervals["level"] as? Double == 0.95)
            for (key, value) in [("sensitivity", se), ("specificity", sp), ("false_alarms_per_hour", Double(alarms) / hours)] {
                let range = try #require(intervals[key] as? [Double], "\(name) \(key)")
                #expect(range.count == 2 && range[0] <= value + 1e-12 && value <= range[1] + 1e-12, "\(name) \(key) \(range) \(value)")
            }
            #expect(output.standardOutput.contains("  \(name): SE "), "\(name)")
        }
        #expect(output.standardOutput.contains("95 % intervals (SE and SP resampling whole subjects, false alarms/h exact Poisson):"))
        // The confirmation stage only ever removes detections or delays them.
        #expect((detectors[3]["false_alarms"] as? Int ?? .max) <= (detectors[2]["false_alarms"] as? Int ?? 0))
        #expect((detectors[3]["latency_ms"] as? [String: Double])?["median"] ?? 0 > (detectors[2]["latency_ms"] as? [String: Double])?["median"] ?? 0)
        // Each fold's threshold and recovery setting are reported (chosen with the threshold, so
        // the false alarms need not be fewer than at the learned detector's own threshold).
        for d in detectors[4...] {
            let settings = try #require(d["recovery_settings"] as? [[String: Double]], "\(d["name"] ?? "?")")
            #expect(d["recovery_choice_nested"] as? Bool == false)
            #expect(settings.count == 3)
            #expect(settings.allSatisfy { $0["window_seconds"] == 10 && ($0["upright_tilt"] ?? 0) > 0 && ($0["upright_seconds"] ?? 0) > 0 })
            #expect(settings.allSatisfy { (0.0999...0.9001).contains($0["threshold"] ?? -1) })
        }
        #expect(detectors[..<4].allSatisfy { $0["recovery_settings"] == nil })
        #expect(output.standardOutput.contains("learned+recovery: per fold, threshold and recovery setting (upright within °, for s): "))
        // A confirmed detection reports when the detector decided as well as when it was confirmed.
        for d in detectors {
            let decided = try #require(d["detection_latency_ms"] as? [String: Double], "\(d["name"] ?? "?")")
            let alert = try #require(d["latency_ms"] as? [String: Double])
            let confirmed = (d["name"] as? String ?? "").contains("stillness")
            #expect(confirmed ? (decided["median"] ?? 0) < (alert["median"] ?? 0) : decided == alert, "\(d["name"] ?? "?")")
        }
        #expect(output.standardOutput.contains("learned+stillness: decided at "))
        let text = try String(contentsOf: svg, encoding: .utf8)
        let parser = XMLParser(data: Data(text.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        for name in names {
            #expect(text.contains("class=\"curve\" data-detector=\"\(name)\""), "\(name)")
        }

        // At 100 Hz the same trials carry half the samples, and the detector still finds falls.
        let slower = dir.appendingPathComponent("online-100.json")
        let output100 = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "learned", "--rate", "100", "--json", slower.path,
            "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output100.status == 0, "\(output100.standardError)")
        #expect(output100.standardOutput.contains("at 100 Hz (one sample in 2)"))
        let report100 = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: slower)) as? [String: Any])
        #expect(report100["sample_rate_hz"] as? Int == 100)
        let learned100 = try #require((report100["detectors"] as? [[String: Any]])?.first)
        let samples200 = try #require(detectors[2]["samples"] as? Int), samples100 = try #require(learned100["samples"] as? Int)
        #expect(abs(samples100 * 2 - samples200) <= report["trials"] as? Int ?? 0)
        #expect(learned100["sensitivity"] as? Double ?? 0 > 0.9)
        let badRate = try DetectordProcess.run(["bench", "--root", dir.path, "--protocol", "online", "--rate", "120"])
        #expect(badRate.status == 64)

        // Softened falls: fitted on the falls as recorded, so the ADL side is exactly as before,
        // and the falls, half as hard, are found less often.
        let soft = dir.appendingPathComponent("online-soft.json")
        let softPlot = dir.appendingPathComponent("online-soft.svg")
        let outputSoft = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "multiphase", "--train", "--folds", "3", "--soften", "0.5",
            "--json", soft.path, "--plot", softPlot.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(outputSoft.status == 0, "\(outputSoft.standardError)")
        #expect(outputSoft.standardOutput.contains("tested on falls softened to 0.50"))
        #expect(try String(contentsOf: softPlot, encoding: .utf8).contains("falls softened to 0.50"))
        let reportSoft = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: soft)) as? [String: Any])
        #expect(reportSoft["soften"] as? Double == 0.5)
        #expect(report["soften"] is NSNull)
        let multiphase = detectors[1], softMultiphase = try #require((reportSoft["detectors"] as? [[String: Any]])?.first)
        #expect(softMultiphase["false_alarms"] as? Int == multiphase["false_alarms"] as? Int)
        #expect(softMultiphase["threshold"] as? Double == multiphase["threshold"] as? Double)
        #expect(softMultiphase["sensitivity"] as? Double ?? 1 < multiphase["sensitivity"] as? Double ?? 0)
        // Slowed falls: the same fitting, so the same ADL outcome; the falls, twice as slow, are
        // found less often.
        let slowJSON = dir.appendingPathComponent("online-slow.json")
        let outputSlow = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "multiphase", "--train", "--folds", "3", "--slow", "2",
            "--json", slowJSON.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(outputSlow.status == 0, "\(outputSlow.standardError)")
        #expect(outputSlow.standardOutput.contains("tested on falls replayed 2.00 times slower"))
        let reportSlow = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: slowJSON)) as? [String: Any])
        #expect(reportSlow["slow"] as? Double == 2 && report["slow"] is NSNull && reportSlow["soften"] is NSNull)
        let slowMultiphase = try #require((reportSlow["detectors"] as? [[String: Any]])?.first)
        #expect(slowMultiphase["false_alarms"] as? Int == multiphase["false_alarms"] as? Int)
        #expect(slowMultiphase["sensitivity"] as? Double ?? 1 < multiphase["sensitivity"] as? Double ?? 0)
        // Another cut of the folds (repeated cross-validation): said in the header and the JSON.
        let seededJSON = dir.appendingPathComponent("online-seeded.json")
        let outputSeeded = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "multiphase", "--train", "--folds", "3", "--fold-seed", "5",
            "--json", seededJSON.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(outputSeeded.status == 0, "\(outputSeeded.standardError)")
        #expect(outputSeeded.standardOutput.contains("3 folds by subject (dealt after shuffling with seed 5)"), "\(outputSeeded.standardOutput)")
        let reportSeeded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: seededJSON)) as? [String: Any])
        #expect(reportSeeded["fold_seed"] as? Int == 5 && report["fold_seed"] as? Int == 0)
        // The stages at their shipped settings: the model retrained per fold, nothing chosen.
        let shippedJSON = dir.appendingPathComponent("online-shipped.json")
        let shipped = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "learned+recovery", "--train", "--folds", "3",
            "--shipped-stages", "--json", shippedJSON.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(shipped.status == 0, "\(shipped.standardError)")
        #expect(shipped.standardOutput.contains("but the stages' shipped threshold and setting"))
        #expect(!shipped.standardOutput.contains("per fold, threshold and recovery setting"))
        let shippedReport = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shippedJSON)) as? [String: Any])
        #expect(shippedReport["shipped_stages"] as? Bool == true && report["shipped_stages"] as? Bool == false)
        let shippedRecovery = try #require((shippedReport["detectors"] as? [[String: Any]])?.first)
        #expect(shippedRecovery["threshold"] as? Double == 0.5 && shippedRecovery["recovery_settings"] == nil)
        // Without the softened copies the learned model differs; the scan is the same.
        #expect(report["augment"] as? [Double] == [0.5])
        let plainJSON = dir.appendingPathComponent("online-plain.json")
        let plain = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "learned", "--train", "--folds", "3", "--augment", "none",
            "--json", plainJSON.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(!plain.standardOutput.contains("softened to"))
        let plainReport = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: plainJSON)) as? [String: Any])
        #expect(plainReport["augment"] as? [Double] == [])
        let plainLearned = try #require((plainReport["detectors"] as? [[String: Any]])?.first)
        #expect(plainLearned["samples"] as? Int == detectors[2]["samples"] as? Int)
        let sweep = { (d: [String: Any]) in (d["sweep"] as? [[String: Double]] ?? []).map { $0["false_alarms_per_hour"] ?? -1 } }
        #expect(!sweep(plainLearned).isEmpty && sweep(plainLearned) != sweep(detectors[2]))
        for bad in [
            ["--soften", "1.5"], ["--soften", "0"], ["--protocol", "trial", "--soften", "0.5"], ["--shipped-stages"], ["--augment", "1"],
            ["--augment", "0.5,x"], ["--augment", ""], ["--slow", "0.9"], ["--slow", "3.5"], ["--slow", "1.5", "--soften", "0.5"],
            ["--protocol", "trial", "--slow", "1.5"], ["--fold-seed", "5"],
        ] {
            let refused = try DetectordProcess.run(["bench", "--root", dir.path, "--protocol", "online"] + bad)
            #expect(refused.status == 64, "\(bad)")
        }
    }

    @Test func badArgumentsAreRefused() throws {
        let detector = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--detector", "c7"])
        #expect(detector.status == 64)
        #expect(detector.standardError.contains("--detector"))
        let online = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--protocol", "online", "--detector", "c9"])
        #expect(online.status == 64)
        #expect(online.standardError.contains("multiphase, learned"))
        let missing = try DetectordProcess.run(["bench", "--root", "/nonexistent"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("/nonexistent/SisFall_dataset"))
        let help = try DetectordProcess.run(["bench", "--help"])
        #expect(help.status == 0)
        for option in ["--dataset", "--root", "--detector", "--protocol", "--folds", "--json", "--cache", "--plot", "--train"] {
            #expect(help.standardOutput.contains(option), "\(option)")
        }
    }

    /// More folds than subjects is a usage error naming both counts.
    @Test func tooManyFolds() throws {
        guard let root = try sisFallRoot() else { return }
        let dir = try subset(of: root)
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run([
            "bench", "--root", dir.path, "--detector", "c2", "--folds", "5", "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 64)
        #expect(output.standardError.contains("5 folds by subject need at least 5 subjects; the data holds 3"))
    }
}
