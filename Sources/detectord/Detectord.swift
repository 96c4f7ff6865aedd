import ArgumentParser

@main
struct Detectord: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detectord",
        abstract: "Fall and crash detection engine with a hardware bridge.",
        discussion: """
            Reads an IMU, a GPS receiver and a Bluetooth keychain button on a body-worn Raspberry Pi, \
            detects falls and crashes, and runs the emergency workflow. The same engine replays \
            recordings and public datasets for evaluation.

            Available today: run (the live daemon, on an I2C IMU, a simulated chip or a replayed \
            recording) and ctl (its command-line client), config check, record, replay (with the fall, \
            free-fall and crash detectors), synth, probe (including --i2c --stream), drill, status, \
            bench (the paper's trial protocol, the detectors' online protocol, and --i2c for the driver \
            path), train, and pair (scan for a Bluetooth LE keychain, beep it, confirm with a press, \
            bind it; --forget unbinds, --simulate needs no radio).
            """,
        version: DetectordVersion.current,
        subcommands: [
            ReplayCommand.self, SynthCommand.self, ProbeCommand.self, DrillCommand.self,
            StatusCommand.self, BenchCommand.self, TrainCommand.self, ConfigCommand.self, RunCommand.self,
            RecordCommand.self, PairCommand.self, CtlCommand.self, FuzzCommand.self,
        ]
    )
}
