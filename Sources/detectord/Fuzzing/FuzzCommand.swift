import ArgumentParser
import Foundation

/// `detectord fuzz TARGET [ARGS…]`: with a binary `make fuzz` built, runs libFuzzer on one
/// parser (ARGS are libFuzzer's: corpus folders, -max_total_time=…); with any other binary,
/// feeds the files or folders given to that parser once and says what each did, which is how a
/// finding is reproduced without sanitizers. Hidden: it is for developers, not for a device.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Fuzz one parser (a `make fuzz` build), or replay inputs through it.",
        discussion: "TARGET is one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")).",
        shouldDisplay: false)

    @Argument(help: ArgumentHelp("The parser.", valueName: "target"))
    var target: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("libFuzzer's arguments, or input files and folders to replay.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        guard let chosen = FuzzTarget(rawValue: target) else {
            throw ValidationError("no fuzz target \"\(target)\"; choose one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        #if DETECTORD_FUZZ
        throw ExitCode(FuzzDriver.run(chosen, arguments: arguments))
        #else
        try replay(chosen)
        #endif
    }

    private func replay(_ chosen: FuzzTarget) throws {
        let inputs = try FuzzCorpus.files(in: arguments)
        guard !inputs.isEmpty else { throw ValidationError("give input files or folders (this binary was not built for fuzzing: `make fuzz` builds one)") }
        var violations = 0
        for path in inputs {
            let outcome = chosen.consume(try FuzzCorpus.bytes(path))
            if case .violated = outcome { violations += 1 }
            print("\(path): \(outcome)")
        }
        if violations > 0 { throw ExitCode(1) }
    }
}
