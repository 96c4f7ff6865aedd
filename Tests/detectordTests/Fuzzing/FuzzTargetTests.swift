import Foundation
import Testing

@testable import detectord

/// The fuzz corpus as regression tests: every seed and every input that once crashed, hung or
/// violated a target goes through its parser again (in this process, so a trap fails the run).
@Suite struct FuzzTargetTests {
    static let fuzzRoot = DetectordProcess.packageRoot.appendingPathComponent("Fuzz").path

    static func inputs(_ kind: FuzzCorpus.Kind, _ target: FuzzTarget) throws -> [String] {
        let folder = "\(fuzzRoot)/\(kind.rawValue)/\(target.rawValue)"
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return try FuzzCorpus.files(in: [folder])
    }

    /// Each target's seeds reach past its first check: at least one is accepted, none violates.
    @Test(arguments: FuzzTarget.allCases)
    func theSeedsAreAcceptedAndHoldTheProperties(_ target: FuzzTarget) throws {
        let seeds = try Self.inputs(.corpus, target)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(target.rawValue) holds no seeds")
        var accepted = 0
        for path in seeds {
            let outcome = target.consume(try FuzzCorpus.bytes(path))
            if case .violated(let why) = outcome { Issue.record("\(path): \(why)") }
            if outcome == .accepted { accepted += 1 }
        }
        #expect(accepted > 0, "no seed of \(target.rawValue) is accepted: the fuzzer would start at the first error")
    }

    /// Inputs that once broke a parser end as an error or a clean read, never a trap or a violation.
    @Test(arguments: FuzzTarget.allCases)
    func everyInputThatOnceBrokeATargetIsHandled(_ target: FuzzTarget) throws {
        for path in try Self.inputs(.crashes, target) {
            if case .violated(let why) = target.consume(try FuzzCorpus.bytes(path)) { Issue.record("\(path): \(why)") }
        }
    }

    /// The issue's inputs, with what each must now give.
    @Test func theKnownCrashesNowReadAsErrors() throws {
        func outcome(_ target: FuzzTarget, _ name: String) throws -> FuzzTarget.Outcome {
            target.consume(try FuzzCorpus.bytes("\(Self.fuzzRoot)/crashes/\(target.rawValue)/\(name)"))
        }
        #expect(try outcome(.csv, "epoch-milliseconds-read-as-seconds") == .rejected)
        #expect(try outcome(.csv, "rebasing-overflows") == .rejected)
        #expect(try outcome(.drill, "a-step-years-away") == .rejected)
        #expect(try outcome(.drill, "beyond-2-to-the-53") == .rejected)
    }

    /// A target tells a parse from a refusal (the seeds' check above rests on it).
    @Test func aTargetTellsAcceptedFromRejected() {
        #expect(FuzzTarget.att.consume([0x03, 0x17, 0x00]) == .accepted)
        #expect(FuzzTarget.att.consume([0x03, 0x17]) == .rejected, "an MTU response cut short")
    }

    /// A file or folder that is not there is named in the error.
    @Test func aMissingInputIsNamed() {
        #expect(throws: (any Error).self) { try FuzzCorpus.files(in: ["/nonexistent/fuzz-input"]) }
    }
}
