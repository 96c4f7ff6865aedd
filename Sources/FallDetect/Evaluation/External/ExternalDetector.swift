import Foundation

/// A detector in another process, spoken to in JSON lines (docs/external-detectors.md,
/// protocol 1): recordings of samples go to its standard input, detections come back on its
/// standard output. Anything that reads and writes lines can be benchmarked this way, a Python
/// script as well as a C program, under the same trials, folds and report as the built-ins.
///
/// `init` starts the command and exchanges hellos; the detector's hello sets `name`, `output`
/// and `threshold`. Every failure is a `FallDetectError` naming the command and, for what the
/// child wrote, the line of its output: a line that is not the protocol's, a child that exits
/// early, and one that moves no byte for `timeout` seconds (then it is killed).
public final class ExternalDetector: SampleDetector {
    public static let protocolVersion = 1
    /// Samples per line unless told otherwise: one second at 200 Hz.
    public static let defaultBatch = 200

    public let command: String
    public private(set) var name: String
    public private(set) var output = SampleDetectorOutput.detections
    public private(set) var threshold = DetectorThreshold.fitted(grid: [])
    /// Samples per line: 1 sends "sample" lines, more sends "samples" lines of up to this many.
    public let batch: Int

    let process: ExternalProcess
    var recording: SampleRecording?
    var buffered: [IMUSample] = []
    var line = ""

    public init(command: String, timeout: Double = 30, batch: Int = ExternalDetector.defaultBatch) throws(FallDetectError) {
        guard !command.allSatisfy(\.isWhitespace) else { throw FallDetectError(.invalidArgument, "no command given", field: "command") }
        guard timeout.isFinite, timeout > 0 else { throw FallDetectError(.invalidArgument, "timeout must be positive, got \(timeout)", field: "timeout") }
        guard batch >= 1, batch <= 100_000 else { throw FallDetectError(.invalidArgument, "batch must lie in 1…100000, got \(batch)", field: "batch") }
        self.command = command
        self.batch = batch
        name = "external"
        process = try ExternalProcess(command: command, timeout: timeout)
        buffered.reserveCapacity(batch)
        do {
            try process.send(Array("{\"type\":\"hello\",\"protocol\":\(Self.protocolVersion)}\n".utf8))
            try readHello()
        } catch {
            process.terminate()
            throw error
        }
    }

    public func start(_ recording: SampleRecording) throws(FallDetectError) {
        guard recording.sampleRate.isFinite, recording.sampleRate > 0 else {
            throw FallDetectError(.invalidArgument, "sample rate must be positive, got \(recording.sampleRate)", field: "rate_hz")
        }
        self.recording = recording
        buffered.removeAll(keepingCapacity: true)
        line = "{\"type\":\"recording\",\"name\":\(JSONLine.quote(recording.name)),\"rate_hz\":\(Self.number(recording.sampleRate)),"
            + "\"units\":{\"acceleration\":\"g\",\"angular_rate\":\"deg/s\"},\"frame\":\"body: x forward, y left, z up\"}\n"
        try process.send(line.utf8)
    }

    public func push(_ sample: IMUSample, into detections: inout [SampleDetection]) throws(FallDetectError) {
        guard recording != nil else { throw FallDetectError(.invalidArgument, "a sample before the recording started", field: "recording") }
        buffered.append(sample)
        if buffered.count == batch { try sendBuffered() }
    }

    public func finish(into detections: inout [SampleDetection]) throws(FallDetectError) {
        guard let recording else { throw FallDetectError(.invalidArgument, "finish before the recording started", field: "recording") }
        try sendBuffered()
        try process.send(Array("{\"type\":\"end\"}\n".utf8))
        try process.flush()
        self.recording = nil
        while true {
            let message = try nextMessage()
            let type = message["type"] as? String ?? ""
            switch type {
            case "done":
                return
            case "detection", "level":
                try expect(type == "detection" ? .detections : .levels, for: type)
                detections.append(try detection(t: message["t"], score: message["score"]))
            case "detections", "levels":
                try expect(type == "detections" ? .detections : .levels, for: type)
                guard let times = message["t"] as? [Any] else { throw bad("\"\(type)\" needs \"t\": an array of seconds") }
                let scores = message["score"] as? [Any]
                guard scores == nil || scores?.count == times.count else { throw bad("\"t\" and \"score\" differ in length") }
                for (i, t) in times.enumerated() { detections.append(try detection(t: t, score: scores?[i])) }
            case "error":
                throw bad("reported an error in \(recording.name): \(message["message"] as? String ?? "(no message)")")
            default:
                throw bad("unexpected \"type\": \"\(type)\" while answering \(recording.name)")
            }
        }
    }

    /// Ends the child's input and waits for it to exit with status 0.
    public func close() throws(FallDetectError) {
        try process.finish()
    }

    // MARK: - Lines

    func sendBuffered() throws(FallDetectError) {
        guard !buffered.isEmpty else { return }
        line.removeAll(keepingCapacity: true)
        if batch == 1 {
            let s = buffered[0]
            line += "{\"type\":\"sample\",\"t\":\(Self.seconds(s.timestampNanoseconds)),\"a\":"
            Self.append(s.acceleration, to: &line)
            line += ",\"w\":"
            Self.append(s.angularRate, to: &line)
        } else {
            line += "{\"type\":\"samples\",\"t\":["
            for (i, s) in buffered.enumerated() {
                if i > 0 { line += "," }
                line += Self.seconds(s.timestampNanoseconds)
            }
            line += "],\"a\":["
            for (i, s) in buffered.enumerated() {
                if i > 0 { line += "," }
                Self.append(s.acceleration, to: &line)
            }
            line += "],\"w\":["
            for (i, s) in buffered.enumerated() {
                if i > 0 { line += "," }
                Self.append(s.angularRate, to: &line)
            }
            line += "]"
        }
        line += "}\n"
        buffered.removeAll(keepingCapacity: true)
        try process.send(line.utf8)
    }

    /// Seconds on the samples' clock, exact to the nanosecond for any recording under 100 days.
    static func seconds(_ nanoseconds: Int64) -> String {
        number(Double(nanoseconds) / 1e9)
    }

    /// The shortest decimal that reads back as the same value; null for what JSON cannot hold.
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// [x,y,z], each the shortest decimal that reads back as the same Float.
    static func append(_ v: SIMD3<Float>, to line: inout String) {
        line += "["
        for k in 0..<3 {
            if k > 0 { line += "," }
            line += v[k].isFinite ? v[k].description : "null"
        }
        line += "]"
    }

    // MARK: - Answers

    func readHello() throws(FallDetectError) {
        let hello = try nextMessage()
        guard hello["type"] as? String == "hello" else { throw bad("the first line must be the hello: {\"type\":\"hello\",\"protocol\":1}", code: .badHeader) }
        guard let version = (hello["protocol"] as? NSNumber)?.intValue, version == Self.protocolVersion else {
            throw bad("speaks protocol \(hello["protocol"].map { "\($0)" } ?? "(none)"); this bench speaks \(Self.protocolVersion)", code: .badHeader)
        }
        if let given = hello["name"] {
            guard let text = given as? String, !text.isEmpty, text.count <= 64 else { throw bad("\"name\" must be a string of 1…64 characters", code: .badHeader) }
            name = text
        }
        if let given = hello["output"] {
            guard let text = given as? String, let kind = SampleDetectorOutput(rawValue: text) else {
                throw bad("\"output\" must be \"detections\" or \"levels\"", code: .badHeader)
            }
            output = kind
        }
        switch (hello["threshold"], hello["thresholds"]) {
        case (nil, nil):
            threshold = .fitted(grid: [])
        case (let fixed?, nil):
            if fixed is NSNull {
                threshold = .none
            } else {
                guard let value = Self.finite(fixed) else { throw bad("\"threshold\" must be a number or null", code: .badHeader) }
                threshold = .fixed(Float(value))
            }
        case (nil, let grid?):
            threshold = .fitted(grid: try Self.grid(grid, bad: bad))
        default:
            throw bad("give \"threshold\" or \"thresholds\", not both", code: .badHeader)
        }
    }

    /// A threshold grid from its hello: an array of values, or {"from","to","step"} computed as
    /// `from + k · step` in Float, the way `OnlineBaseline.thresholds` is.
    static func grid(_ given: Any, bad: (String, FallDetectError.Code) -> FallDetectError) throws(FallDetectError) -> [Float] {
        if let values = given as? [Any] {
            var grid: [Float] = []
            for v in values {
                guard let x = finite(v) else { throw bad("\"thresholds\" must hold numbers", .badHeader) }
                grid.append(Float(x))
            }
            guard !grid.isEmpty, grid.count <= 10_000 else { throw bad("\"thresholds\" must hold 1…10000 values", .badHeader) }
            return grid.sorted()
        }
        guard let range = given as? [String: Any], let from = range["from"].flatMap(finite), let to = range["to"].flatMap(finite),
            let step = range["step"].flatMap(finite), step > 0, to >= from
        else { throw bad("\"thresholds\" must be an array or {\"from\": a, \"to\": b, \"step\": s} with s > 0, b ≥ a", .badHeader) }
        let count = ((to - from) / step).rounded()
        guard count <= 10_000 else { throw bad("\"thresholds\" must hold at most 10000 values", .badHeader) }
        return (0...Int(count)).map { Float(from) + Float($0) * Float(step) }
    }

    func nextMessage() throws(FallDetectError) -> [String: Any] {
        let bytes = try process.readLine()
        let parsed = try? JSONSerialization.jsonObject(with: Data(bytes))
        guard let message = parsed as? [String: Any] else {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            throw bad("not a JSON object: \(text)\(bytes.count > 80 ? "…" : "")", code: .malformedRow)
        }
        return message
    }

    func expect(_ kind: SampleDetectorOutput, for type: String) throws(FallDetectError) {
        guard kind == output else { throw bad("\"\(type)\" from a detector whose hello said \"output\": \"\(output.rawValue)\"") }
    }

    func detection(t: Any?, score: Any?) throws(FallDetectError) -> SampleDetection {
        guard let seconds = t.flatMap(Self.finite), abs(seconds) < 9e9 else { throw bad("\"t\" must be a number of seconds") }
        var value: Float?
        if let score, !(score is NSNull) {
            guard let s = Self.finite(score) else { throw bad("\"score\" must be a number") }
            value = Float(s)
        }
        guard value != nil || output == .detections else { throw bad("a level needs a \"score\"") }
        return SampleDetection(timestampNanoseconds: Int64((seconds * 1e9).rounded()), score: value)
    }

    static func finite(_ any: Any) -> Double? {
        guard let n = any as? NSNumber, n.doubleValue.isFinite else { return nil }
        return n.doubleValue
    }

    func bad(_ message: String, code: FallDetectError.Code = .malformedRow) -> FallDetectError {
        FallDetectError(code, message, path: command, line: process.lineNumber > 0 ? process.lineNumber : nil)
    }
}
