import DeviceLink
import FallDetect
import Foundation

/// Every parser that takes bytes from outside the process, as one entry each: `detectord fuzz`
/// runs them under libFuzzer (Fuzz/README.md), and the corpus tests replay their seeds and every
/// input that once broke them. A crash, a hang or a `.violated` outcome is a finding; an error
/// the parser reports is the expected answer to bad input.
enum FuzzTarget: String, CaseIterable, Sendable {
    case sisfall, recording, csv, drill, configuration
    case datasetDescription = "dataset-description"
    case model, modem, att, advertising
    case apiBody = "api-body"

    enum Outcome: Equatable, Sendable {
        /// The parser took the input (at least in part).
        case accepted
        /// The parser refused the input with an error of its own.
        case rejected
        /// A property that must hold for every input did not: two kernels disagreed, an encoded
        /// value did not decode to itself.
        case violated(String)
    }

    func consume(_ bytes: [UInt8]) -> Outcome {
        switch self {
        case .sisfall: Self.sisFall(bytes)
        case .recording: Self.accepted { () throws(FallDetectError) in _ = try RecordingReader().decode(bytes, path: "fuzz.detrec") }
        case .csv: Self.csv(bytes)
        case .drill: DrillScript(text: Self.text(bytes), path: "fuzz.jsonl").steps.isEmpty ? .rejected : .accepted
        case .configuration:
            Self.accepted { () throws(ConfigurationErrors) in
                _ = try DaemonConfiguration.parse(text: Self.text(bytes), path: "/nonexistent/fuzz.toml", environment: Self.environment)
            }
        case .datasetDescription:
            Self.accepted { () throws(ConfigurationErrors) in
                _ = try DatasetDescriptionFile.parse(text: Self.text(bytes), path: "/nonexistent/fuzz.toml")
            }
        case .model: Self.accepted { () throws(FallDetectError) in _ = try FallModelFile(text: Self.text(bytes), path: "fuzz.txt") }
        case .modem: Self.modem(bytes)
        case .att: Self.att(bytes)
        case .advertising: Self.accepted { () throws(AdvertisingParseError) in _ = try AdvertisingReportParser.parse(bytes) }
        case .apiBody: APIRequestFuzzing.consume(bytes)
        }
    }

    /// The secret the example configuration names, so that seed is accepted whole.
    private static let environment = ["DETECTORD_WEBHOOK_SECRET": "fuzz-secret-of-thirty-two-bytes-or-more"]

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func accepted<E: Error>(_ body: () throws(E) -> Void) -> Outcome {
        do throws(E) {
            try body()
            return .accepted
        } catch {
            return .rejected
        }
    }

    /// The SIMD and SWAR kernels must read every input exactly as the scalar one does.
    private static func sisFall(_ bytes: [UInt8]) -> Outcome {
        /// The values read, or the error's text: kernels must agree on both.
        func parse(_ kernel: SisFallParser.Kernel) -> (values: [Int16]?, error: String?) {
            do { return (try SisFallParser.parse(bytes, kernel: kernel), nil) } catch { return (nil, "\(error)") }
        }
        let scalar = parse(.scalar)
        for kernel in [SisFallParser.Kernel.swar, .vector, .automatic] {
            let other = parse(kernel)
            guard other.values == scalar.values, other.error == scalar.error else {
                return .violated("the \(kernel) kernel reads the text differently from the scalar one")
            }
        }
        _ = try? bytes.withUnsafeBytes { try SisFallParser.parseLabels($0, path: "fuzz.txt") }
        if let kept = try? bytes.withUnsafeBytes({ try SisFallParser.parseKeepingGoodRows($0, path: "fuzz.txt") }) {
            // Every malformed row is replaced, never dropped: the rows stay a whole number.
            guard kept.values.count % SisFallParser.columns == 0 else { return .violated("a partial row was kept") }
            if scalar.values != nil, kept.values != scalar.values || !kept.malformed.isEmpty {
                return .violated("a clean text reads differently when damaged rows are tolerated")
            }
        }
        return scalar.values == nil ? .rejected : .accepted
    }

    /// Both ways a CSV is described: a header with a time column, and bare columns at a rate; then
    /// the parser's two kernels against each other.
    private static func csv(_ bytes: [UInt8]) -> Outcome {
        let positional = CSVFormat(
            time: nil, acceleration: (.index(0), .index(1), .index(2)), angularRate: (.index(3), .index(4), .index(5)),
            timeUnit: .milliseconds, sampleRate: 50)
        var outcome = Outcome.rejected
        for format in [CSVFormat(), positional] {
            let result = bytes.withUnsafeBytes { raw -> Outcome in
                do throws(FallDetectError) {
                    let read = try CSVRecordingReader(format: format).read(bytes: raw, path: "fuzz.csv", title: "fuzz")
                    return read.recording.samples.isEmpty ? .rejected : .accepted
                } catch {
                    return .rejected
                }
            }
            if result == .accepted { outcome = .accepted }
        }
        if let disagreement = csvKernelsDisagree(bytes) { return .violated(disagreement) }
        return outcome
    }

    /// The vector kernel must read every text as the scalar one does, with the seams between calls
    /// wherever the input's length puts them, for the usual delimiters and one printable byte more,
    /// chosen by the input (a description may name any, digits and '.' among them).
    private static func csvKernelsDisagree(_ bytes: [UInt8]) -> String? {
        let capacity = 1 + bytes.count % 37
        let other = UInt8(0x21 + bytes.reduce(0) { ($0 &+ Int($1)) % 94 })
        return bytes.withUnsafeBytes { raw in
            for delimiter in Array(",; \t".utf8) + [other] {
                for columns: [Int32] in [[0, 1, 2, 3, 4, 5], [1, 3]] {
                    let scalar = CSVRowParser.rows(raw, columns: columns, delimiter: delimiter, capacity: capacity, kernel: .scalar)
                    let vector = CSVRowParser.rows(raw, columns: columns, delimiter: delimiter, capacity: capacity, kernel: .vector)
                    if scalar != vector {
                        return "the vector kernel reads the text differently from the scalar one (delimiter \(delimiter), columns \(columns), \(capacity) rows a call)"
                    }
                }
            }
            return nil
        }
    }

    private static func modem(_ bytes: [UInt8]) -> Outcome {
        let lines = text(bytes).split(whereSeparator: \.isNewline).map { ModemLine(String($0)) }
        return lines.contains { if case .other = $0 { false } else { true } } ? .accepted : .rejected
    }

    /// A PDU that decodes must encode to bytes that decode to the same PDU.
    private static func att(_ bytes: [UInt8]) -> Outcome {
        let pdu: ATTPDU
        do throws(ATTDecodeError) { pdu = try ATTPDU.decode(bytes) } catch { return .rejected }
        guard (try? ATTPDU.decode(pdu.encoded())) == pdu else {
            return .violated("\(pdu) does not survive encoding and decoding")
        }
        return .accepted
    }
}
