import FallDetect
import Foundation
import TOMLKit

/// Reads a dataset description (docs/dataset-description.md) from TOML: every issue found is
/// reported as FILE:LINE:COLUMN: field: message, all of them in one go, as for the daemon's file.
enum DatasetDescriptionFile {
    static func load(path: String) throws(ConfigurationErrors) -> DatasetDescription {
        let bytes: [UInt8]
        do { bytes = try ReferencedFile.read(path) } catch {
            throw ConfigurationErrors([ConfigurationIssue(path: path, message: error.message)])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationErrors([ConfigurationIssue(path: path, message: "is not UTF-8 text, as TOML must be")])
        }
        return try parse(text: text, path: path)
    }

    static func parse(text: String, path: String) throws(ConfigurationErrors) -> DatasetDescription {
        let top = try ConfigurationTable.top(text: text, path: path, environment: [:])
        let context = top.context
        let description = read(top, path: path)
        guard context.issues.isEmpty, let description else {
            let issues = context.issues.isEmpty ? [ConfigurationIssue(path: path, message: "could not be read")] : context.sortedIssues
            throw ConfigurationErrors(issues)
        }
        return description
    }

    static let kinds = ["continuous", "trials"]
    static let fallSources = ["labels", "span_file", "none"]

    static func read(_ top: ConfigurationTable, path: String) -> DatasetDescription? {
        top.rejectUnknownKeys(known: ["name", "kind", "files", "subject", "fall_trials", "axes", "columns", "units", "labels", "falls"])
        let name = top.string("name") ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let kindName = top.string("kind", required: "continuous or trials").flatMap { top.oneOf("kind", $0, kinds) }
        let files = top.string("files", required: "a path pattern relative to the root, such as recordings/*.csv").flatMap { pattern in
            checked(top, "files") { () throws(FallDetectError) in _ = try FileGlob(pattern); return pattern }
        }
        let subject = top.string("subject").flatMap { regex(top, "subject", $0, captures: 1) }
        var kind: DatasetKind?
        let fallTrials = top.string("fall_trials").flatMap { regex(top, "fall_trials", $0, captures: nil) }
        switch kindName {
        case "trials":
            if let fallTrials { kind = .trials(fallTrials: fallTrials) } else if !top.contains("fall_trials") {
                top.missing("fall_trials", "with kind = \"trials\", a regular expression that matches the names of fall trials, such as ^F")
            }
        case "continuous":
            kind = .continuous
            if top.contains("fall_trials") { top.context.report(top.field("fall_trials"), "applies to kind = \"trials\" only", at: .key) }
        default: break
        }
        let axes = top.string("axes", required: "a mapping such as x=+z,y=-y,z=+x, or auto").flatMap { text -> DatasetAxes? in
            if text == "auto" { return .auto }
            guard let mapping = AxisMapping(text) else {
                top.context.report(top.field("axes"), "\"\(text)\" is not a mapping; expected x=±a,y=±b,z=±c over x, y, z once each (x=+z,y=-y,z=+x), or auto")
                return nil
            }
            return .mapping(mapping)
        }
        let format = self.format(top)
        let labels = top.table("labels")
        labels?.rejectUnknownKeys(known: ["column", "file", "unlabelled", "removal_margin", "names"])
        var labelSource: DatasetLabelSource?
        if let labels {
            let column = self.column(labels, "column")
            let file = labels.string("file").flatMap { template in
                checked(labels, "file") { () throws(FallDetectError) in try PathTemplate(template) }
            }
            if column != nil, file != nil {
                labels.context.report(labels.field("file"), "give the labels' column or their file, not both", at: .key)
            } else if let column {
                labelSource = .column(column)
            } else if let file {
                labelSource = .file(file)
            } else if !labels.contains("column"), !labels.contains("file") {
                labels.missing("column", "the label column (a header name or a 0-based index), or file = a path template")
            }
        }
        let unlabelled = labels?.integer("unlabelled", in: Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        let removal = labels?.number("removal_margin", in: 0...3600)
        let names = labels.map(labelNames) ?? [:]

        let falls = self.falls(top, labels: labelSource)
        if kindName == "trials", falls == DatasetFallSource.none {
            top.context.report("falls.from", "kind = \"trials\" needs its falls: from = \"labels\" or \"span_file\"")
        }
        guard let kind, let files, let axes, let format, let falls, top.context.issues.isEmpty else { return nil }
        return DatasetDescription(
            name: name, kind: kind, files: files, subjectPattern: subject, format: format, axes: axes, labels: labelSource, unlabelledValue: unlabelled,
            labelNames: names, falls: falls, removalMargin: removal, source: path)
    }

    /// `[columns]` and `[units]` as a `CSVFormat` (its axes and label are set by the loader).
    static func format(_ top: ConfigurationTable) -> CSVFormat? {
        guard let columns = top.table("columns", required: "the columns of ax, ay, az (and gx, gy, gz, time)") else { return nil }
        columns.rejectUnknownKeys(known: ["delimiter", "time", "ax", "ay", "az", "gx", "gy", "gz"])
        let units = top.table("units")
        units?.rejectUnknownKeys(known: ["sample_rate", "time", "acceleration", "acceleration_scale", "angular_rate", "angular_rate_scale"])
        var delimiter = UInt8(ascii: ",")
        if let text = columns.string("delimiter") {
            if text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
                delimiter = byte
            } else {
                columns.context.report(columns.field("delimiter"), "\"\(text)\" is not one ASCII character such as \",\", \";\" or \"\\t\"")
            }
        }
        let time = column(columns, "time")
        let ax = column(columns, "ax", required: true)
        let ay = column(columns, "ay", required: true)
        let az = column(columns, "az", required: true)
        let gx = column(columns, "gx"), gy = column(columns, "gy"), gz = column(columns, "gz")
        var gyroscope: (x: CSVFormat.Column, y: CSVFormat.Column, z: CSVFormat.Column)?
        switch (gx, gy, gz) {
        case let (x?, y?, z?): gyroscope = (x, y, z)
        case (nil, nil, nil): break
        default:
            if let given = ["gx", "gy", "gz"].first(where: { columns.contains($0) }) {
                columns.context.report(columns.field(given), "give all of gx, gy and gz or none", at: .key)
            }
        }
        let rate = units?.number("sample_rate", in: 1...100_000)
        if time == nil, rate == nil, units?.contains("sample_rate") != true {
            if let units { units.missing("sample_rate", "the sample rate in Hz, as there is no time column") } else {
                top.missing("units", "[units] with sample_rate, as there is no time column")
            }
        }
        if time != nil, rate != nil {
            units?.context.report(units?.field("sample_rate") ?? "units.sample_rate", "give a time column or a sample rate, not both", at: .key)
        }
        let timeUnit: CSVFormat.TimeUnit = units?.choice("time") ?? .seconds
        let acceleration: CSVFormat.AccelerationUnit = units?.choice("acceleration") ?? .g
        let angularRate: CSVFormat.AngularRateUnit = units?.choice("angular_rate") ?? .degreesPerSecond
        let accelerationScale = units?.number("acceleration_scale", in: 1e-9...1e9) ?? 1
        let angularRateScale = units?.number("angular_rate_scale", in: 1e-9...1e9) ?? 1
        guard let ax, let ay, let az else { return nil }
        return CSVFormat(
            time: time, acceleration: (ax, ay, az), angularRate: gyroscope, timeUnit: timeUnit, accelerationUnit: acceleration,
            angularRateUnit: angularRate, sampleRate: rate ?? 100, delimiter: delimiter, accelerationScale: accelerationScale,
            angularRateScale: angularRateScale)
    }

    /// A column: a 0-based index (a whole number) or a header name (text).
    static func column(_ table: ConfigurationTable, _ key: String, required: Bool = false) -> CSVFormat.Column? {
        guard let value = table.table[key] else {
            if required { table.missing(key, "a header name in quotes or a 0-based column index") }
            return nil
        }
        if let index = value.int {
            guard index >= 0, index < 100_000 else {
                table.context.report(table.field(key), "is \(index); expected a 0-based column index")
                return nil
            }
            return .index(index)
        }
        if let name = value.string, !name.isEmpty { return .name(name) }
        table.context.report(table.field(key), "is \(ConfigurationTable.describe(value.type)); expected a header name in quotes or a 0-based column index")
        return nil
    }

    /// `[labels.names]`: `1 = "walking"`.
    static func labelNames(_ labels: ConfigurationTable) -> [Int16: String] {
        guard let names = labels.table("names") else { return [:] }
        var result: [Int16: String] = [:]
        for key in names.table.keys {
            guard let value = Int16(key) else {
                names.context.report(names.field(key), "\"\(key)\" is not a label value; expected a whole number such as 1 = \"walking\"", at: .key)
                continue
            }
            if let text = names.string(key) { result[value] = text }
        }
        return result
    }

    static func falls(_ top: ConfigurationTable, labels: DatasetLabelSource?) -> DatasetFallSource? {
        guard let falls = top.table("falls", required: "[falls] with from = \"labels\", \"span_file\" or \"none\"") else { return nil }
        falls.rejectUnknownKeys(known: ["from", "values", "span_file"])
        guard let from = falls.string("from", required: "labels, span_file or none").flatMap({ falls.oneOf("from", $0, fallSources) }) else { return nil }
        switch from {
        case "labels":
            if labels == nil, !top.contains("labels") {
                falls.context.report(falls.field("from"), "falls come from the labels, but [labels] names no column or file")
            }
            guard let value = falls.table["values"] else {
                falls.missing("values", "the label values that mark a fall, such as [2]")
                return nil
            }
            guard let array = value.array, !array.isEmpty else {
                falls.context.report(falls.field("values"), "expected a non-empty array of whole numbers, such as [2]")
                return nil
            }
            var values = Set<Int16>()
            for element in array {
                guard let n = element.int, let v = Int16(exactly: n) else {
                    falls.context.report(falls.field("values"), "expected whole numbers from \(Int16.min) to \(Int16.max)")
                    return nil
                }
                values.insert(v)
            }
            if falls.contains("span_file") { falls.context.report(falls.field("span_file"), "applies to from = \"span_file\" only", at: .key) }
            return .labels(values: values)
        case "span_file":
            guard let file = falls.string("span_file", required: "a CSV file of file,start,end rows, relative to the root") else { return nil }
            if falls.contains("values") { falls.context.report(falls.field("values"), "applies to from = \"labels\" only", at: .key) }
            return .spanFile(file)
        default:
            for key in ["values", "span_file"] where falls.contains(key) {
                falls.context.report(falls.field(key), "does not apply to from = \"none\"", at: .key)
            }
            return DatasetFallSource.none
        }
    }

    /// `pattern` when it compiles with `captures` groups (any number when nil).
    static func regex(_ table: ConfigurationTable, _ key: String, _ pattern: String, captures: Int?) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else {
            table.context.report(table.field(key), "\"\(pattern)\" is not a regular expression")
            return nil
        }
        if let captures, regex.numberOfCaptureGroups != captures {
            table.context.report(
                table.field(key), "\"\(pattern)\" has \(regex.numberOfCaptureGroups) capture groups; expected \(captures), around the subject's part of the path")
            return nil
        }
        return pattern
    }

    /// Runs a FallDetect check and reports its message at `key`.
    static func checked<T>(_ table: ConfigurationTable, _ key: String, _ body: () throws(FallDetectError) -> T) -> T? {
        do { return try body() } catch {
            table.context.report(table.field(key), error.message)
            return nil
        }
    }
}
