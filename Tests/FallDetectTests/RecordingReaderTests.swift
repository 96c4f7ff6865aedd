import Foundation
import Testing
@testable import FallDetect

@Suite struct RecordingReaderTests {
    private let reader = RecordingReader()

    /// `bytes` without the blocks in `removed`: what a reader should recover when exactly those
    /// blocks are lost.
    private func expected(_ bytes: [UInt8], without removed: [Range<Int>]) throws -> Recording {
        var kept = bytes
        for range in removed.sorted(by: { $0.lowerBound > $1.lowerBound }) { kept.removeSubrange(range) }
        let result = try reader.decode(kept)
        #expect(result.problems.isEmpty)
        return result.recording
    }

    @Test func truncationAtEveryOffsetKeepsEveryCompleteBlock() throws {
        let (_, bytes) = try RecordingFixtures.smallMultiBlock()
        let ranges = RecordingFixtures.blockRanges(bytes)
        #expect(ranges.count >= 12)
        let headerLength = ranges[0].lowerBound
        for cut in 0...bytes.count {
            let prefix = Array(bytes[..<cut])
            guard cut >= headerLength else {
                do {
                    _ = try reader.decode(prefix)
                    Issue.record("a file cut inside its header (at \(cut)) must be rejected")
                } catch {
                    #expect(error.code == .badHeader)
                }
                continue
            }
            let result = try reader.decode(prefix, path: "cut.detrec")
            let complete = ranges.filter { $0.upperBound <= cut }
            let lost = ranges.filter { $0.upperBound > cut }
            #expect(result.recording.sameContent(as: try expected(bytes, without: lost)), "cut at \(cut)")
            #expect(complete.count + lost.count == ranges.count)
            if ranges.contains(where: { $0.upperBound == cut }) || cut == headerLength {
                #expect(result.problems.isEmpty, "cut at a block boundary \(cut)")
            } else {
                #expect(result.problems.map(\.code) == [.truncated], "cut at \(cut)")
                #expect(result.problems.first?.path == "cut.detrec")
                #expect(result.problems.first?.line == complete.count + 1)
            }
        }
    }

    @Test func aCorruptByteCostsOnlyItsBlock() throws {
        let (_, bytes) = try RecordingFixtures.smallMultiBlock()
        let ranges = RecordingFixtures.blockRanges(bytes)
        for (index, block) in ranges.enumerated() {
            let survivors = try expected(bytes, without: [block])
            for offset in block {
                for mask: UInt8 in [0x01, 0xFF] {
                    var damaged = bytes
                    damaged[offset] ^= mask
                    let result = try reader.decode(damaged)
                    #expect(result.recording.sameContent(as: survivors), "block \(index), byte \(offset)")
                    let codes = result.problems.map(\.code)
                    if index == ranges.count - 1 {
                        // Nothing follows the last block: a damaged length that overruns the end
                        // of the file looks exactly like a cut, anything else like damage.
                        #expect(codes == [.corruptBlock] || codes == [.truncated], "last block, byte \(offset)")
                    } else {
                        #expect(codes == [.corruptBlock], "block \(index), byte \(offset)")
                    }
                }
            }
        }
    }

    @Test func garbageBetweenBlocksIsSkipped() throws {
        let (original, bytes) = try RecordingFixtures.smallMultiBlock()
        let ranges = RecordingFixtures.blockRanges(bytes)
        var random = RecordingFixtures.Bytes(state: 99)
        // Random bytes with a fake sync word and block header (bad CRC) in the middle.
        let garbage = random.bytes(37) + RecordingFormat.syncWord + [1, 0, 32, 0, 1, 0, 0, 0, 32, 0, 0, 0] + random.bytes(50)
        var damaged = bytes
        damaged.insert(contentsOf: garbage, at: ranges[3].lowerBound)
        damaged.insert(contentsOf: random.bytes(5), at: ranges[1].lowerBound)
        let result = try reader.decode(damaged)
        #expect(result.recording.sameContent(as: original))
        #expect(result.problems.map(\.code) == [.corruptBlock, .corruptBlock])
        #expect(result.problems[0].message.contains("skipped 5 bytes"))
    }

    @Test func rejectsForeignFilesAndUnknownMajorVersions() throws {
        let (_, bytes) = try RecordingFixtures.smallMultiBlock()
        func rejection(_ data: [UInt8]) -> FallDetectError? {
            do {
                _ = try reader.decode(data, path: "x.detrec")
                return nil
            } catch {
                return error
            }
        }
        var wrongMagic = bytes
        wrongMagic[1] = UInt8(ascii: "X")
        #expect(rejection(wrongMagic)?.field == "magic")
        #expect(rejection(Array("time,ax,ay,az\n0,0,0,1\n".utf8))?.code == .badHeader)
        #expect(rejection([])?.code == .badHeader)
        var major2 = bytes
        major2[8] = 2
        let error = rejection(major2)
        #expect(error?.code == .badHeader && error?.field == "major")
        #expect(error?.message.contains("2.0") == true)
        #expect(error?.path == "x.detrec")
        var badCRC = bytes
        badCRC[20] ^= 0x10
        #expect(rejection(badCRC)?.field == "header_crc")
        var hugeHeader = bytes
        hugeHeader[15] = 0x7F
        #expect(rejection(hugeHeader)?.field == "header_length")
        do {
            _ = try reader.read(path: "/nonexistent/x.detrec")
            Issue.record("a missing file must throw")
        } catch {
            #expect(error.code == .io && error.errno == ENOENT && error.path == "/nonexistent/x.detrec")
        }
    }

    /// A file from a newer minor version: an extended header and a block type unknown here.
    @Test func readsNewerMinorVersionsAndSkipsUnknownBlockTypes() throws {
        let (original, bytes) = try RecordingFixtures.smallMultiBlock()
        let headerLength = RecordingFixtures.blockRanges(bytes)[0].lowerBound
        var header = Array(bytes[..<(headerLength - 4)])
        header[10] = 3  // minor 3
        header += [1, 2, 3, 4, 5, 6, 7, 8]  // extension fields 1.0 does not know
        let newLength = UInt32(header.count + 4)
        for i in 0..<4 { header[12 + i] = UInt8(truncatingIfNeeded: newLength >> (8 * UInt32(i))) }
        header += withUnsafeBytes(of: CRC32C.checksum(header).littleEndian, Array.init)
        var block = RecordingFormat.syncWord + [77, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        block += [10, 20, 30, 40, 50]
        block += withUnsafeBytes(of: CRC32C.checksum(block).littleEndian, Array.init)
        let newer = header + block + bytes[headerLength...]
        let result = try reader.decode(newer)
        #expect(result.minorVersion == 3)
        #expect(result.recording.sameContent(as: original))
        #expect(result.problems.map(\.code) == [.unknownBlock])
        #expect(result.problems[0].message.contains("77"))
    }

    /// A later minor version may append fields to fixed-size records; `record_size` says how long
    /// they are, and a 1.0 reader takes the fields it knows.
    @Test func readsFixedSizeRecordsThatGrewInANewerMinorVersion() throws {
        let (_, bytes) = try RecordingFixtures.smallMultiBlock()
        let headerLength = RecordingFixtures.blockRanges(bytes)[0].lowerBound
        var out = RecordingByteWriter()
        out.append(contentsOf: RecordingFormat.syncWord)
        out.u8(1); out.u8(0); out.u16(36); out.u32(2); out.u32(72); out.i64(-100)
        for (time, value) in [(Int64(-100), Float(1.5)), (Int64(-90), Float(-2.5))] {
            out.i64(time)
            for axis in 0..<6 { out.f32(value + Float(axis)) }
            out.u32(0xFFFF_FFFF)  // a field this reader does not know
        }
        out.u32(CRC32C.checksum(out.bytes))
        let newer = Array(bytes[..<headerLength]) + out.bytes + bytes[headerLength...]
        let result = try reader.decode(newer)
        #expect(result.problems.isEmpty)
        let first = try #require(result.recording.samples.first)
        #expect(first.timestampNanoseconds == -100)
        #expect(first.acceleration == SIMD3(1.5, 2.5, 3.5) && first.angularRate == SIMD3(4.5, 5.5, 6.5))
        #expect(result.recording.samples[1].acceleration.x == -2.5)
    }

    @Test func aChecksummedButMalformedBlockIsDroppedAlone() throws {
        let (_, bytes) = try RecordingFixtures.smallMultiBlock()
        let ranges = RecordingFixtures.blockRanges(bytes)
        let imu = ranges.first { bytes[$0.lowerBound + 4] == 1 }!
        var damaged = bytes
        damaged[imu.lowerBound + 6] = 31  // record size 31: the records no longer fill the payload
        let crcOffset = imu.upperBound - 4
        let crc = CRC32C.checksum(Array(damaged[imu.lowerBound..<crcOffset]))
        for i in 0..<4 { damaged[crcOffset + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        let result = try reader.decode(damaged)
        #expect(result.problems.map(\.code) == [.corruptBlock])
        #expect(result.recording.sameContent(as: try expected(bytes, without: [imu])))
    }

    @Test func returnsEachStreamInTimeOrder() throws {
        let (original, bytes) = try RecordingFixtures.smallMultiBlock()
        let ranges = RecordingFixtures.blockRanges(bytes)
        // Reverse the blocks on disk: every stream's blocks are now out of order.
        let reversed = Array(bytes[..<ranges[0].lowerBound]) + ranges.reversed().flatMap { bytes[$0] }
        let result = try reader.decode(reversed)
        #expect(result.problems.isEmpty)
        #expect(result.recording.sameContent(as: original))
    }

    @Test func randomBytesNeverCrashTheReader() throws {
        let (_, valid) = try RecordingFixtures.smallMultiBlock()
        let headerLength = RecordingFixtures.blockRanges(valid)[0].lowerBound
        var random = RecordingFixtures.Bytes(state: 2026)
        var decoded = 0
        for round in 0..<1500 {
            var input: [UInt8]
            switch round % 3 {
            case 0:
                input = random.bytes(random.below(400))
                if round % 2 == 0 { input = RecordingFormat.magic + input }
            case 1:
                input = Array(valid[..<headerLength]) + random.bytes(random.below(600))
                // Sprinkle sync words so the resynchronisation path is exercised hard.
                for _ in 0..<random.below(6) where input.count > headerLength + 4 {
                    let at = headerLength + random.below(input.count - headerLength - 4)
                    input.replaceSubrange(at..<(at + 4), with: RecordingFormat.syncWord)
                }
            default:
                input = valid
                for _ in 0..<(1 + random.below(8)) {
                    let at = random.below(input.count)
                    switch random.below(4) {
                    case 0: input[at] = UInt8(truncatingIfNeeded: random.next())
                    case 1: input.insert(contentsOf: random.bytes(1 + random.below(40)), at: at)
                    case 2: input.removeSubrange(at..<min(input.count, at + 1 + random.below(40)))
                    default: input.removeSubrange(min(at + headerLength, input.count)...)
                    }
                    if input.isEmpty { break }
                }
            }
            do {
                let result = try reader.decode(input)
                decoded += 1
                for problem in result.problems {
                    #expect([.corruptBlock, .truncated, .unknownBlock].contains(problem.code))
                }
            } catch {
                #expect(error.code == .badHeader)
            }
        }
        #expect(decoded > 300)
    }
}
