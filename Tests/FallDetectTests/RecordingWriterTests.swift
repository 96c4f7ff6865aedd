import Foundation
import Testing
@testable import FallDetect

@Suite struct RecordingWriterTests {
    private let reader = RecordingReader()

    /// Motion shows a person's days: a recording is the owner's alone, one written over an
    /// existing file (left 0644 by an earlier run) too, and a symbolic link is not followed.
    @Test func aRecordingIsTheOwnersAlone() throws {
        let directory = try RecordingFixtures.temporaryDirectory()
        let path = directory + "/private.detrec"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        try RecordingWriter.write(RecordingFixtures.fullRecording(), to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "\(String(mode ?? 0, radix: 8))")
        let link = directory + "/link.detrec"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: FallDetectError.self) { try RecordingWriter.write(RecordingFixtures.fullRecording(), to: link) }
        // Not a regular file: `record --out /dev/null` (as root) must leave the device as it was.
        let null = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int
        try RecordingWriter.write(RecordingFixtures.fullRecording(), to: "/dev/null")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int == null)
    }

    @Test func roundTripsEveryFieldOfEveryStreamThroughAFile() throws {
        let directory = try RecordingFixtures.temporaryDirectory()
        let path = directory + "/full.detrec"
        let original = RecordingFixtures.fullRecording()
        try RecordingWriter.write(original, to: path)
        let result = try reader.read(path: path)
        #expect(result.problems.isEmpty)
        #expect(result.minorVersion == 0)
        let read = result.recording
        #expect(read.info == original.info)
        #expect(read.info.sensor.axisMapping == .sisFall)
        #expect(read.info.sensor.hasMagnetometer)
        #expect(!read.info.isSynthetic)
        #expect(read.samples == original.samples)
        #expect(read.magnetometer == original.magnetometer)
        #expect(read.fixes == original.fixes)
        #expect(read.events == original.events)
        // The absent optionals come back absent, not zero.
        #expect(read.fixes[1].speed == nil && read.fixes[1].latitude == nil && read.fixes[1].utcNanoseconds == nil)
        #expect(read.fixes[1].satellitesUsed == nil && read.fixes[1].mode == .none)
        #expect(read.fixes[2].speed == 0 && read.fixes[2].track == nil && read.fixes[2].satellitesUsed == 0)
        #expect(read.events[3].kind.rawValue == 200 && read.events[3].text == "日本語のメモ")
        // Signed zero survives bit for bit.
        #expect(read.samples[7].acceleration.z.sign == .minus)
        #expect(try RecordingFixtures.contents(of: path) == RecordingWriter.encode(original))
    }

    @Test func syntheticFlagAndIdentityMappingRoundTrip() throws {
        let info = RecordingInfo(
            sensor: SensorInfo(sensor: "", device: "", accelerometerRange: 2, gyroscopeRange: 250, sampleRate: 50),
            title: "", isSynthetic: true)
        let bytes = try RecordingWriter.encode(Recording(info: info))
        #expect(bytes.count == 56)  // the smallest header, and no blocks for empty streams
        let read = try reader.decode(bytes)
        #expect(read.recording.info == info)
        #expect(read.recording.samples.isEmpty && read.problems.isEmpty)
    }

    @Test func writesABlockWhenABufferFillsAndOnFlush() throws {
        let directory = try RecordingFixtures.temporaryDirectory()
        let path = directory + "/stream.detrec"
        let writer = try RecordingWriter(
            path: path, info: RecordingFixtures.info, options: .init(imuSamplesPerBlock: 4, syncOnFlush: true))
        let header = writer.bytesWritten
        #expect(try RecordingFixtures.contents(of: path).count == header)
        let samples = (0..<6).map { IMUSample(timestampNanoseconds: Int64($0) * 10_000_000, acceleration: SIMD3(0, 0, 1)) }
        try writer.append(contentsOf: samples[0..<3])
        #expect(try RecordingFixtures.contents(of: path).count == header)  // still buffered
        try writer.append(samples[3])
        #expect(try RecordingFixtures.contents(of: path).count == header + 28 + 4 * 32)  // buffer full: one block
        try writer.append(samples[4])
        try writer.append(GNSSFix(timestampNanoseconds: 45_000_000, mode: .twoD, latitude: 1, longitude: 2))
        try writer.flush()
        #expect(try RecordingFixtures.contents(of: path).count == header + (28 + 128) + (28 + 32) + (28 + 80))
        // What is on disk now is already a complete, readable recording.
        let partial = try reader.read(path: path)
        #expect(partial.problems.isEmpty && partial.recording.samples.count == 5 && partial.recording.fixes.count == 1)
        try writer.append(samples[5])
        try writer.close()
        try writer.close()  // closing twice is harmless
        #expect(writer.isClosed)
        let final = try reader.read(path: path)
        #expect(final.recording.samples == samples && final.problems.isEmpty)
        #expect(try RecordingFixtures.contents(of: path).count == writer.bytesWritten)
        do {
            try writer.append(samples[0])
            Issue.record("appending to a closed writer must throw")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    /// A live chip's real rate and ranges, known after the header went out, are written into it
    /// in place; the blocks written before and after stay intact.
    @Test func theSensorFieldsAreRewrittenInPlace() throws {
        let directory = try RecordingFixtures.temporaryDirectory()
        let path = directory + "/rate.detrec"
        let original = RecordingFixtures.fullRecording()
        let writer = try RecordingWriter(path: path, info: original.info)
        try writer.append(contentsOf: original.samples.prefix(3))
        try writer.flush()
        var sensor = original.info.sensor
        sensor.sampleRate = 208
        sensor.gyroscopeRange = 500
        try writer.updateSensor(sensor)
        try writer.append(contentsOf: original.samples.dropFirst(3))
        try writer.close()
        let read = try reader.read(path: path)
        #expect(read.problems.isEmpty)
        #expect(read.recording.info.sensor.sampleRate == 208 && read.recording.info.sensor.gyroscopeRange == 500)
        #expect(read.recording.samples == original.samples)
        var renamed = sensor
        renamed.sensor += " and more"
        let another = try RecordingWriter(path: directory + "/renamed.detrec", info: original.info)
        #expect(throws: FallDetectError.self) { try another.updateSensor(renamed) }
    }

    @Test func anUnclosedWriterFlushesWhenReleased() throws {
        let directory = try RecordingFixtures.temporaryDirectory()
        let path = directory + "/forgotten.detrec"
        do {
            let writer = try RecordingWriter(path: path, info: RecordingFixtures.info)
            try writer.append(RecordedEvent(timestampNanoseconds: 5, kind: .note, text: "last words"))
        }
        let result = try reader.read(path: path)
        #expect(result.recording.events.map(\.text) == ["last words"])
    }

    @Test func interleavesStreamsInTimeOrderAndSplitsLongStreams() throws {
        var recording = RecordingFixtures.fullRecording(samples: 1000)
        recording.events.append(RecordedEvent(timestampNanoseconds: 9_000_000_000, kind: .note, text: "late"))
        let bytes = try RecordingWriter.encode(recording)
        let ranges = RecordingFixtures.blockRanges(bytes)
        let types = ranges.map { bytes[$0.lowerBound + 4] }
        #expect(types.filter { $0 == 1 }.count == 4)  // 1000 samples in blocks of 256
        let firstTimes = ranges.map { r in
            (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[r.lowerBound + 16 + $1]) << (8 * Int64($1)) }
        }
        // Each block's first time stamp is its first record's; blocks of one stream are in order.
        for type in 1...4 {
            let times = zip(types, firstTimes).filter { $0.0 == UInt8(type) }.map(\.1)
            #expect(times == times.sorted())
        }
        #expect(try reader.decode(bytes).recording.sameContent(as: recording))
    }

    @Test func cutsOverlongEventTextAtACharacterBoundary() throws {
        let long = String(repeating: "é", count: 40_000)  // 80,000 UTF-8 bytes
        let recording = Recording(
            info: RecordingFixtures.info,
            events: [RecordedEvent(timestampNanoseconds: 1, kind: .note, text: long),
                     RecordedEvent(timestampNanoseconds: 2, kind: .note, text: "after")])
        let read = try reader.decode(RecordingWriter.encode(recording))
        #expect(read.problems.isEmpty)
        #expect(read.recording.events.count == 2)
        #expect(read.recording.events[0].text == String(repeating: "é", count: 32_767))
        #expect(read.recording.events[1].text == "after")
    }

    @Test func rejectsBadOptionsAndOverlongHeaderStrings() throws {
        #expect(throws: FallDetectError.self) {
            _ = try RecordingWriter.encode(
                Recording(info: RecordingFixtures.info), options: .init(imuSamplesPerBlock: 0))
        }
        var info = RecordingFixtures.info
        info.title = String(repeating: "x", count: 70_000)
        do {
            _ = try RecordingWriter.encode(Recording(info: info))
            Issue.record("an overlong title must be rejected")
        } catch {
            #expect(error.code == .invalidArgument && error.field == "title")
        }
    }

    @Test func reportsIOErrorsWithPathAndErrno() throws {
        let path = "/nonexistent-directory-\(UInt32.random(in: 0...UInt32.max))/x.detrec"
        do {
            _ = try RecordingWriter(path: path, info: RecordingFixtures.info)
            Issue.record("creating a file in a missing directory must throw")
        } catch {
            #expect(error.code == .io)
            #expect(error.path == path)
            #expect(error.errno == ENOENT)
        }
    }
}
