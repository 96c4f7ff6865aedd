import ArgumentParser

/// Placeholder until the evaluation lands: the name is fixed so scripts can rely on it.
struct BenchCommand: PlannedCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Evaluate detectors over a dataset (not implemented yet).")
}
