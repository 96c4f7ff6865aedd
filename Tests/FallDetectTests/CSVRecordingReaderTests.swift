import Foundation
import Testing
@testable import FallDetect

@Suite struct CSVRecordingReaderTests {
    private func read(_ text: String, format: CSVFormat = CSVFormat()) throws -> CSVRecordingReader.Result {
        try CSVRecordingReader(format: format).read(text: Data(text.utf8), path: "walk.csv", title: "walk")
    }

    @Test func readsNamedColumnsInDefaultUnits() throws {
        let result = try read("time,ax,ay,az,gx,gy,gz\n10.00,0,0,1,1,2,3\n10.01,0.5,0,1,0,0,0\n")
        #expect(result.problems.isEmpty)
        #expect(result.recording.samples.count == 2)
        #expect(result.recording.samples[0].timestampNanoseconds == 0)
        #expect(result.recording.samples[1].timestampNanoseconds == 10_000_000)
        #expect(result.recording.samples[0].angularRate == SIMD3(1, 2, 3))
        #expect(abs(result.recording.info.sensor.sampleRate - 100) < 1e-6)
    }

    @Test func convertsUnitsAndMapsAxes() throws {
        var format = try CSVFormat(columns: "time=0,ax=1,ay=2,az=3,gx=4,gy=5,gz=6")
        format.timeUnit = .milliseconds
        format.accelerationUnit = .metersPerSecondSquared
        format.angularRateUnit = .radiansPerSecond
        format.axisMapping = .sisFall
        let result = try read("0,0,-9.80665,0,0,3.14159265,0\n5,0,-9.80665,0,0,0,0\n", format: format)
        let first = result.recording.samples[0]
        // Sensor y along gravity: the body's z reads +1 g.
        #expect(abs(first.acceleration.z - 1) < 1e-5)
        #expect(abs(first.angularRate.z + 180) < 1e-3)
        #expect(result.recording.samples[1].timestampNanoseconds == 5_000_000)
    }

    @Test func rowsWithoutTimeAreSpacedBySampleRate() throws {
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2")
        format.sampleRate = 50
        let result = try read("0,0,1\n0,0,1\n0,0,1\n", format: format)
        #expect(result.recording.samples.map(\.timestampNanoseconds) == [0, 20_000_000, 40_000_000])
    }

    @Test func rowsWithoutTimeSkipImpossibleValuesAcrossParserChunks() throws {
        // Without a time column rows take the bulk path; a row it refuses is reported as the
        // row-by-row path reports it, and the next samples follow on without a gap.
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2,gx=3,gy=4,gz=5")
        format.sampleRate = 100
        var rows = Array(repeating: "0,0,1,0,0,0", count: 2100)
        rows[3] = "3000,0,1,0,0,0"
        rows[1500] = "0,0,1,0,-50000,0"
        rows[2099] = "0,0,1,0,0,7"
        let result = try read(rows.joined(separator: "\n") + "\n", format: format)
        #expect(result.problems.map(\.field) == ["ax", "gy"])
        #expect(result.problems.map(\.line) == [4, 1501])
        #expect(result.recording.samples.count == 2098)
        #expect(result.recording.samples.last.map(\.timestampNanoseconds) == Int64(2097) * 10_000_000)
        #expect(result.recording.samples.last?.angularRate == SIMD3(0, 0, 7))
    }

    @Test func badRowsAreReportedWithLineAndFieldAndSkipped() throws {
        let text = "time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n0.01,abc,0,1,0,0,0\n0.02,0,0\n0,0,0,1,0,0,0\n0.03,0,0,1,0,0,0\n"
        let result = try read(text)
        #expect(result.recording.samples.count == 2)
        #expect(result.problems.map(\.line) == [3, 4, 5])
        #expect(result.problems.map(\.field) == ["ax", "az", "time"])
        #expect(result.problems[0].description.hasPrefix("walk.csv:3: ax: \"abc\" is not a number"))
    }

    @Test func unknownColumnNameIsAnErrorNamingTheHeader() {
        #expect {
            _ = try read("t,x,y,z\n0,0,0,1\n")
        } throws: { error in
            let error = error as? FallDetectError
            return error?.field == "time" && error?.message.contains("header has t, x, y, z") == true
        }
    }

    @Test(arguments: ["ax=0,ay=1", "speed=3,ax=0,ay=1,az=2", "ax=0,ay=1,az=2,gx=3"])
    func malformedColumnSpecsAreRejected(_ spec: String) {
        #expect(throws: FallDetectError.self) { _ = try CSVFormat(columns: spec) }
    }

    @Test func emptyFileIsAnError() {
        #expect(throws: FallDetectError.self) { _ = try read("\n\n") }
    }

    @Test func readsFromDiskAndNamesMissingFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID()).csv").path
        try "time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CSVRecordingReader().read(path: path).recording.samples.count == 1)
        #expect(throws: FallDetectError.self) { _ = try CSVRecordingReader().read(path: path + ".missing") }
    }

    // MARK: The byte-level parser behind the reader

    private func values(_ result: CSVRecordingReader.Result) -> [[Float]] {
        result.recording.samples.map { [$0.acceleration.x, $0.acceleration.y, $0.acceleration.z] }
    }

    @Test func readsSignsExponentsAndSpacesAroundFields() throws {
        let format = try CSVFormat(columns: "ax=0,ay=1,az=2")
        let result = try read("1e-3, -2.5E+01 ,+4\n\t-0.5e1\t,1.,.25\n", format: format)
        #expect(result.problems.isEmpty)
        #expect(values(result) == [[1e-3, -25, 4], [-5, 1, 0.25]])
    }

    @Test func readsCRLFCommentsAndBlankLines() throws {
        let text = "# exported by a phone\r\n\r\ntime,ax,ay,az,gx,gy,gz\r\n0,0,0,1,0,0,0\r\n# a note\r\n  \t\r\n0.01,x,0,1,0,0,0\r\n0.02,0.5,0,1,0,0,0\r\n"
        let result = try read(text)
        #expect(values(result) == [[0, 0, 1], [0.5, 0, 1]])
        #expect(result.problems.map(\.line) == [7])
        #expect(result.problems.first?.description.hasPrefix("walk.csv:7: ax: \"x\" is not a number") == true)
    }

    @Test func readsALastRowWithoutNewline() throws {
        let format = try CSVFormat(columns: "ax=0,ay=1,az=2")
        #expect(values(try read("0,0,1\n0.5,0,1", format: format)) == [[0, 0, 1], [0.5, 0, 1]])
        #expect(values(try read("0,0,1\r\n0.5,0,1\r", format: format)) == [[0, 0, 1], [0.5, 0, 1]])
        #expect(values(try read("ax,ay,az", format: CSVFormat(time: nil, angularRate: nil))).isEmpty)
    }

    @Test(arguments: ["1.2.3", "nan", "inf", "-infinity", "1e999", "", "1e", "0.5 0.6", "--1"])
    func rejectsFieldsThatAreNotFiniteNumbers(_ field: String) throws {
        let text = "time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n0.01,0,\(field),1,0,0,0\n0.02,0,0,1,0,0,0\n"
        let result = try read(text)
        #expect(result.recording.samples.count == 2)
        #expect(result.problems.map(\.line) == [3])
        #expect(result.problems.map(\.field) == ["ay"])
        #expect(result.problems.first?.message == "\"\(field)\" is not a number; row skipped")
    }

    @Test func reportsTheFirstBadFieldInFieldOrderNotFileOrder() throws {
        // az is column 0 and ax column 2: both bad, ax is named as before.
        let format = try CSVFormat(columns: "ax=2,ay=1,az=0")
        let result = try read("0,0,0\nx,0,y\n1,2\n", format: format)
        #expect(result.problems.map(\.field) == ["ax", "ax"])
        #expect(result.problems.map(\.message) == ["\"y\" is not a number; row skipped", "missing; row skipped"])
    }

    @Test func readsTheSameColumnTwiceAndOtherDelimiters() throws {
        var format = try CSVFormat(columns: "ax=1,ay=1,az=0")
        format.delimiter = UInt8(ascii: ";")
        #expect(values(try read("1;2\n3 ; 4;x\n", format: format)) == [[2, 2, 1], [4, 4, 3]])
        format.delimiter = UInt8(ascii: "\t")
        #expect(values(try read("1\t2\n3\t 4 \n", format: format)) == [[2, 2, 1], [4, 4, 3]])
    }

    @Test func readsVeryLongLinesAndLongNumbers() throws {
        let long = "0." + String(repeating: "3", count: 500) + "e1"
        let filler = (0..<5000).map(String.init).joined(separator: ",")
        let format = try CSVFormat(columns: "ax=5001,ay=5002,az=0")
        let result = try read("7,\(filler),\(long),-1\n8,\(filler)\n", format: format)
        #expect(values(result) == [[Float(Double(long)!), -1, 7]])
        #expect(result.problems.map(\.line) == [2])
        #expect(result.problems.map(\.field) == ["ax"])
    }

    @Test func lineNumbersHoldAcrossParserChunks() throws {
        // More rows than the parser writes per call, with a bad row and a time step back in between.
        var text = "time,ax,ay,az\n"
        for i in 0..<(3 * CSVRecordingReader.chunkRows) {
            text += i == 1500 ? "bad,0,0,1\n" : i == 2500 ? "0,0,0,1\n" : "\(Double(i) / 100),0,0,1\n"
        }
        let result = try read(text, format: CSVFormat(angularRate: nil))
        #expect(result.problems.map(\.line) == [1502, 2502])
        #expect(result.problems.map(\.field) == ["time", "time"])
        #expect(result.recording.samples.count == 3 * CSVRecordingReader.chunkRows - 2)
    }

    @Test func readsTheSameRowsAsTheStringReader() throws {
        // The reader before the byte-level parser, kept here as the reference for LF text.
        let texts = [
            "time,ax,ay,az,gx,gy,gz\n0,0,0,1,1,2,3\n0.01, 0.5 ,0,1,0,0,0\n\n# c\n0.02,1e-2,-0,+1,0,0,0,extra\n0.015,0,0,1,0,0,0\n0.03,0,0\n",
            "time,ax,ay,az,gx,gy,gz\n0.5,1.2.3,0,1,0,0,0\n0.6,-0.112500,0.509722,-0.054978,-0.069639,-0.030849,0\n0.7,3,nan,1,1,1,1\n",
            "time,ax,ay,az,gx,gy,gz\n" + CSVNumberParserTests.samples(count: 7 * 300).enumerated().map { i, v in
                i % 7 == 0 ? "\(i)" : v
            }.chunked(7).map { $0.joined(separator: ",") }.joined(separator: "\n"),
        ]
        for text in texts {
            let new = try read(text)
            let old = try StringReference.read(text, format: CSVFormat())
            #expect(new.recording.samples == old.samples)
            #expect(new.problems == old.problems)
        }
    }
}

extension Array {
    fileprivate func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

/// The String-splitting reader this parser replaced, for LF text and a time column.
private enum StringReference {
    static func read(_ text: String, format: CSVFormat) throws -> (samples: [IMUSample], problems: [FallDetectError]) {
        var lines: [(Int, Substring)] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            lines.append((i + 1, line))
        }
        let header = lines[0].1.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let names = ["time", "ax", "ay", "az", "gx", "gy", "gz"]
        let indices = names.map { header.firstIndex(of: $0)! }
        var samples: [IMUSample] = []
        var problems: [FallDetectError] = []
        var lastTime: Int64?
        var firstTime: Double?
        rows: for (number, line) in lines.dropFirst() {
            let row = line.split(separator: ",", omittingEmptySubsequences: false)
            var values: [Double] = []
            for (field, index) in zip(names, indices) {
                guard index < row.count, let value = Double(row[index].trimmingCharacters(in: .whitespaces)), value.isFinite else {
                    let what = index < row.count ? "\"\(row[index])\" is not a number" : "missing"
                    problems.append(FallDetectError(.malformedRow, "\(what); row skipped", path: "walk.csv", line: number, field: field))
                    continue rows
                }
                values.append(value)
            }
            let timestamp = Int64(((values[0] - (firstTime ?? values[0])) * 1e9).rounded())
            if let lastTime, timestamp <= lastTime {
                problems.append(FallDetectError(.malformedRow, "time does not increase; row skipped", path: "walk.csv", line: number, field: "time"))
                continue
            }
            // The body-worn ranges, checked in the same order.
            for (offset, name) in ["ax", "ay", "az", "gx", "gy", "gz"].enumerated() {
                let limit = offset < 3 ? 2000.0 : 40_000.0
                guard abs(values[1 + offset]) <= limit else {
                    let sensor = offset < 3 ? "accelerometer (2000 g)" : "gyroscope (40000 °/s)"
                    problems.append(FallDetectError(.malformedRow, "\(values[1 + offset]) is beyond any body-worn \(sensor); row skipped", path: "walk.csv", line: number, field: name))
                    continue rows
                }
            }
            lastTime = timestamp
            if firstTime == nil { firstTime = values[0] }
            samples.append(IMUSample(
                timestampNanoseconds: timestamp,
                acceleration: SIMD3(Float(values[1]), Float(values[2]), Float(values[3])),
                angularRate: SIMD3(Float(values[4]), Float(values[5]), Float(values[6]))))
        }
        if let origin = samples.first?.timestampNanoseconds {
            for i in samples.indices { samples[i].timestampNanoseconds -= origin }
        }
        return (samples, problems)
    }
}

/// The label column and the scales of raw counts.
extension CSVRecordingReaderTests {
    @Test func readsALabelColumnAlignedWithTheSamples() throws {
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2")
        format.label = .name("label")
        let result = try read("ax,ay,az,note,label\n0,0,1,x,-1\n0,0,oops,x,3\n0,0,1,x,11\n", format: format)
        // The unreadable row takes its label with it.
        #expect(result.recording.samples.count == 2)
        #expect(result.labels == [-1, 11])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.line == 3)
    }

    @Test func aLabelThatIsNotANumberSkipsItsRowNamingTheField() throws {
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2")
        format.label = .index(3)
        let result = try read("0,0,1,2\n0,0,1,walk\n", format: format)
        #expect(result.labels == [2])
        #expect(result.problems.first?.field == "label")
    }

    @Test func noLabelColumnGivesNoLabels() throws {
        let result = try read("time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n")
        #expect(result.labels.isEmpty)
    }

    @Test func scalesMultiplyRawCountsBeforeTheUnit() throws {
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2,gx=3,gy=4,gz=5")
        format.accelerationScale = 1.0 / 256
        format.angularRateScale = 2
        format.angularRateUnit = .radiansPerSecond
        let result = try read("256,-512,128,0.5,0,0\n", format: format)
        #expect(result.recording.samples[0].acceleration == SIMD3(1, -2, 0.5))
        #expect(abs(result.recording.samples[0].angularRate.x - Float(180 / Double.pi)) < 1e-4)
    }

    /// SisFall ends every row with ';' after its ninth column: only the columns read matter, and
    /// a first row of numbers with such a tail is data, not a header.
    @Test func sisFallRowsWithTrailingSemicolonsRead() throws {
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2,gx=3,gy=4,gz=5")
        format.sampleRate = 200
        format.accelerationScale = 1.0 / 256
        let text = "  17,-179, -99, -18,-504,-352,  76,-697,-279;\r\n  15,-174, -90, -53,-568,-306,  48,-675,-254;\r\n"
        let result = try read(text, format: format)
        #expect(result.problems.isEmpty)
        #expect(result.recording.samples.count == 2)
        #expect(result.recording.samples[0].acceleration == SIMD3<Float>(17, -179, -99) / 256)
        #expect(result.recording.samples[1].angularRate == SIMD3(-53, -568, -306))
    }

    @Test func epochMillisecondsReadAsSecondsAreRefusedWithTheUnitToGive() throws {
        let result = try read("time,ax,ay,az,gx,gy,gz\n1658348227683,0,0,1,0,0,0\n")
        #expect(result.recording.samples.isEmpty)
        let problem = try #require(result.problems.first)
        #expect(problem.line == 2 && problem.field == "time")
        #expect(problem.message.contains("it looks like epoch milliseconds: give the time unit ms"), "\(problem.message)")
        var format = CSVFormat()
        format.timeUnit = .milliseconds
        let right = try read("time,ax,ay,az,gx,gy,gz\n1658348227683,0,0,1,0,0,0\n1658348227693,0,0,1,0,0,0\n", format: format)
        #expect(right.recording.samples.map(\.timestampNanoseconds) == [0, 10_000_000] && right.problems.isEmpty)
    }

    @Test func timesFarApartAndImpossibleAccelerationsAreRowsSkippedNotTraps() throws {
        let result = try read("time,ax,ay,az,gx,gy,gz\n-9e9,0,0,1,0,0,0\n0,0,0,1,0,0,0\n0.01,1e18,0,1,0,0,0\n0.02,0,0,1,0,9e9,0\n0.03,0,0,1,0,0,0\n9e9,0,0,1,0,0,0\n")
        #expect(result.recording.samples.map(\.timestampNanoseconds) == [0, 30_000_000])
        #expect(result.problems.map(\.field) == ["time", "ax", "gy", "time"])
        #expect(result.problems.map(\.line) == [2, 4, 5, 7])
    }
}
