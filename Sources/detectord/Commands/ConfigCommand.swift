import ArgumentParser
import FallDetect

/// `detectord config`: tools for the daemon's TOML configuration.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the daemon's configuration file.",
        subcommands: [Check.self])

    /// `detectord config check FILE`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a configuration file the way `detectord run` reads it.",
            discussion: """
                Reads FILE as the daemon would, with the files it names (secrets, PIN hash, model, \
                recording) and the environment variables it names. A good file prints "FILE: ok" and \
                a summary, and exits 0. Otherwise every issue goes to standard error as \
                FILE:LINE:COLUMN: field: message (the column, or the line, left out where unknown), \
                and the exit status is 65. Secrets are never printed. The fields are described in \
                config/detectord.example.toml and docs/configuration.md.
                """)

        @Argument(help: ArgumentHelp("The configuration file (TOML).", valueName: "file"))
        var file: String

        func run() throws {
            do {
                let configuration = try DaemonConfiguration.load(path: file)
                Terminal.standardOutput.write(Self.summary(configuration, file: file))
            } catch {
                Terminal.standardError.write(error.issues.map { $0.description + "\n" }.joined())
                throw ExitCode(65)
            }
        }

        /// "FILE: ok" and one line for each part a person would want to confirm.
        static func summary(_ c: DaemonConfiguration, file: String) -> String {
            let person = c.person.map { "\($0.person.fullName) (\($0.person.phone), \($0.person.country))" } ?? "set on the device's page"
            let sensor: String =
                switch c.sensor.source {
                case .i2c(let i2c):
                    "i2c bus \(i2c.bus), \(i2c.address.map { "address 0x" + String($0, radix: 16) } ?? "address scanned"), chip \(i2c.chip.rawValue), \(ConfigurationTable.text(c.sensor.rateHz)) Hz"
                case .simulated(let simulated):
                    "simulated \(simulated.chip.chip.rawValue) measuring \(simulated.motion ?? "a device lying still")\(simulated.speed == 1 ? "" : " at \(ConfigurationTable.text(simulated.speed))x"), \(ConfigurationTable.text(c.sensor.rateHz)) Hz"
                case .replay(let replay):
                    "replay \(replay.path) at \(ConfigurationTable.text(replay.speed))x\(replay.loop ? ", looped" : "")"
                }
            let contacts = c.contacts.map { list in
                "\(list.count): " + list.map { "\($0.contact.name) (\($0.channel.rawValue))" }.joined(separator: ", ")
            } ?? "set on the device's page"

            var lines = [
                "\(file): ok",
                "  person:   \(person)",
                "  contacts: \(contacts)",
                "  detector: \(c.detector.profile.name), \(c.detector.sensitivity) sensitivity\(c.detector.modelPath.map { ", model \($0)" } ?? "")",
                "  sensor:   \(sensor)",
                "  channels: \(c.channels.configured.map(\.rawValue).joined(separator: ", "))",
                "  api:      \(c.api.address)",
            ]
            if c.workflow.demo { lines.append("  demo:     countdowns may be shortened (\(ConfigurationTable.text(c.workflow.settings.countdown)) s, SOS \(ConfigurationTable.text(c.workflow.settings.manualCountdown)) s)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
