import Foundation
import Testing

@testable import FallDetect

/// The external-process protocol with small children: a Python echo for the round trip, shell
/// one-liners for each way a child can fail.
@Suite struct ExternalDetectorTests {
    /// A protocol-1 detector in a few lines: per recording one detection at its third sample
    /// scored by the number of samples, one unscored at its last sample, and its acceleration's
    /// first x back as a level check.
    static let echo = """
        import json, sys
        print(json.dumps({"type": "hello", "protocol": 1, "name": "echo", "thresholds": [1, 2, 3]}), flush=True)
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                assert m["protocol"] == 1
            elif m["type"] == "recording":
                assert m["units"] == {"acceleration": "g", "angular_rate": "deg/s"}, m
                name, rate, t, a, w = m["name"], m["rate_hz"], [], [], []
            elif m["type"] == "sample":
                t.append(m["t"]); a.append(m["a"]); w.append(m["w"])
            elif m["type"] == "samples":
                t += m["t"]; a += m["a"]; w += m["w"]
            elif m["type"] == "end":
                print(json.dumps({"type": "detection", "t": t[2], "score": len(t)}))
                print(json.dumps({"type": "detections", "t": [t[-1]], "score": [None]}))
                print(json.dumps({"type": "detection", "t": a[0][0] + w[0][2] + rate + (name == "R2")}))
                print(json.dumps({"type": "done"}), flush=True)
        """

    static func script(_ text: String) throws -> String {
        let dir = try SharedData.temporaryDirectory("external")
        let path = "\(dir)/detector.py"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func samples(_ count: Int) -> [IMUSample] {
        (0..<count).map { i in
            IMUSample(
                timestampNanoseconds: Int64(i) * 5_000_000, acceleration: SIMD3(0.1 * Float(i + 1), -0.25, 0.98),
                angularRate: SIMD3(1.5, -2, 0.3051758))
        }
    }

    /// A detector that fails as `shell` does, and the error it gives over one recording.
    static func failure(_ shell: String, timeout: Double = 5) -> FallDetectError? {
        do {
            var detector = try ExternalDetector(command: shell, timeout: timeout)
            _ = try SampleDetectorRun.track(of: samples(10), recording: SampleRecording(name: "R1", sampleRate: 200), detector: &detector)
            try detector.close()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [1, 7, 200])
    func samplesGoOutAndDetectionsComeBack(batch: Int) throws {
        let path = try Self.script(Self.echo)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var detector = try ExternalDetector(command: "python3 \(path)", batch: batch)
        #expect(detector.name == "echo")
        #expect(detector.output == .detections)
        #expect(detector.threshold == .fitted(grid: [1, 2, 3]))
        for (name, count) in [("R1", 10), ("R2", 450)] {
            let found = try SampleDetectorRun.track(
                of: Self.samples(count), recording: SampleRecording(name: name, sampleRate: 200), detector: &detector)
            // Sorted by time: 0.1 + 0.3051758 + 200 (+1) s comes last.
            // Python adds the decimals as written: 0.1 + 0.3051758 + 200 (+1) in double.
            let level = 0.1 + 0.3051758 + 200 + (name == "R2" ? 1 : 0)
            #expect(
                found == [
                    SampleDetection(timestampNanoseconds: 10_000_000, score: Float(count)),
                    SampleDetection(timestampNanoseconds: Int64(count - 1) * 5_000_000, score: nil),
                    SampleDetection(timestampNanoseconds: Int64((level * 1e9).rounded()), score: nil),
                ])
        }
        try detector.close()
    }

    @Test func aGarbageLineNamesTheCommandAndItsLine() {
        let command = #"printf '{"type":"hello","protocol":1}\nhello?\n'; cat >/dev/null"#
        let error = Self.failure(command)
        #expect(error?.code == .malformedRow)
        #expect(error?.path == command)
        #expect(error?.line == 2)
        #expect(error?.message.contains("not a JSON object: hello?") == true)
    }

    @Test func aWrongFieldIsRefusedWithItsLine() {
        let command = #"printf '{"type":"hello","protocol":1,"output":"levels"}\n{"type":"level","t":"soon","score":1}\n'; cat >/dev/null"#
        let error = Self.failure(command)
        #expect(error?.code == .malformedRow)
        #expect(error?.line == 2)
        #expect(error?.message.contains("\"t\"") == true)
    }

    @Test func anotherProtocolVersionIsRefused() {
        let error = Self.failure(#"printf '{"type":"hello","protocol":2}\n'; cat >/dev/null"#)
        #expect(error?.code == .badHeader)
        #expect(error?.line == 1)
        #expect(error?.message.contains("protocol 2") == true)
    }

    @Test func aChildThatExitsEarlyGivesItsStatus() {
        let error = Self.failure(#"printf '{"type":"hello","protocol":1}\n'; head -c 100 >/dev/null; exit 3"#)
        #expect(error?.code == .externalDetector)
        #expect(error?.message.contains("exited with status 3") == true)
    }

    @Test func aChildThatIsNotThereGivesTheShellsStatus() {
        let error = Self.failure("/nonexistent/detector")
        #expect(error?.code == .externalDetector)
        #expect(error?.message.contains("exited with status 127") == true)
    }

    @Test func aHungChildTimesOutAndIsKilled() {
        let clock = ContinuousClock()
        let start = clock.now
        // It answers the hello, then neither reads nor writes: the bench's writes fill the socket.
        let error = Self.failure(#"printf '{"type":"hello","protocol":1}\n'; exec sleep 60"#, timeout: 0.5)
        #expect(error?.code == .externalDetector)
        #expect(error?.message.contains("timed out") == true)
        #expect(start.duration(to: clock.now) < .seconds(10))
    }

    @Test func aChildThatNeverAnswersTheHelloTimesOut() {
        let error = Self.failure("exec sleep 60", timeout: 0.3)
        #expect(error?.message.contains("timed out") == true)
    }

    @Test func aChildFailingAfterItsLastRecordingIsAnError() throws {
        let path = try Self.script(Self.echo + "\nsys.exit(4)\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var detector = try ExternalDetector(command: "python3 \(path)")
        _ = try SampleDetectorRun.track(of: Self.samples(5), recording: SampleRecording(name: "R1", sampleRate: 200), detector: &detector)
        #expect(throws: FallDetectError.self) { try detector.close() }
    }

    @Test func theGridOfAHelloIsComputedAsC8s() throws {
        let grid = try ExternalDetector.grid(["from": 0.2, "to": 1.5, "step": 0.005] as [String: Any]) { message, code in
            FallDetectError(code, message)
        }
        #expect(grid == OnlineBaseline.thresholds)
    }
}
