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
}
