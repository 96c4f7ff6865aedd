import ArgumentParser

/// A subcommand whose name is fixed but whose work has not landed yet. It says so and exits with
/// EX_UNAVAILABLE (69) rather than pretending to do something.
protocol PlannedCommand: ParsableCommand {}

extension PlannedCommand {
    func run() throws {
        let name = Self.configuration.commandName ?? "this command"
        Terminal.standardError.write("detectord \(name): not implemented yet in \(DetectordVersion.current).\n")
        throw ExitCode(69)
    }
}
