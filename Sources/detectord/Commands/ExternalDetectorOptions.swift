import ArgumentParser
import FallDetect

/// `bench --detector external`: the command of a detector in another process and how to talk
/// to it (docs/external-detectors.md).
struct ExternalDetectorOptions: ParsableArguments {
    @Option(
        name: .customLong("external-command"),
        help: ArgumentHelp(
            "With --protocol online and --detector external (or all): the detector to run, as a /bin/sh command line, e.g. "
                + "'python3 Examples/detectors/c8.py'. It reads recordings as JSON lines on stdin and writes detections on stdout "
                + "(docs/external-detectors.md).", valueName: "command"))
    var command: String?

    @Option(
        name: .customLong("external-timeout"),
        help: ArgumentHelp("Seconds the external detector may go without reading or writing a byte while it owes an answer; then it is killed.", valueName: "s"))
    var timeout: Double = 30

    @Option(
        name: .customLong("external-batch"),
        help: ArgumentHelp("Samples per line sent to the external detector: 1 sends \"sample\" lines, more sends \"samples\" lines of up to this many.", valueName: "n"))
    var batch: Int = ExternalDetector.defaultBatch

    @Option(
        name: .customLong("external-jobs"),
        help: ArgumentHelp(
            "External detector processes run at once, each over its share of the recordings; the figures are those of one process.",
            valueName: "n"))
    var jobs: Int = 1
}
