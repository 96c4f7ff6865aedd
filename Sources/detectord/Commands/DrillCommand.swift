import ArgumentParser
import DeviceLink
import FallDetect
import Foundation

struct DrillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "Run a scripted emergency timeline on a virtual clock against the real workflow and database.",
        discussion: """
            SCRIPT is JSON lines {"at": SECONDS, "do": ACTION, ...}. Actions: start {name, phone, country}, \
            contact {name, phone, pin (once a PIN is set)}, set_pin {pin, duress_pin?}, detect {kind: fall|crash}, sos {source}, im_fine, \
            up_again (the fall's recovery check found the wearer up: withdraws the fall's countdown unless \
            the alarm was answered), stayed_down, quit, call112, survey {answer: didnt_fall|fell|no_help_needed}, cancel, resume, disarm {pin}, \
            position {lat, lon, accuracy_m, speed_mps}, network {up}, battery {percent}, crash, advance. \
            The journal is printed as JSON lines: transition, message, alarm, note, restart and error. \
            Invalid lines are reported with their number and skipped. Run again with the same --db, a \
            drill that was killed resumes where its database says it was. Messages always go to the console channel. \
            network {up: false} marks every channel down: attempts fail without being made, one probe per channel \
            at most 15 s apart; network {up: true} sends everything waiting at once, alerts first. A contact may name another channel \
            ({"do": "contact", ..., "channel": "webhook"}); --config FILE configures them as JSON: \
            {"webhook": {"url": URL, "secret": TEXT}, "sms": {"device": PATH, "baud": N}}. \
            Examples are in Datasets/drills/.
            """)

    @Argument(help: ArgumentHelp("The drill script (JSON lines).", valueName: "script"))
    var script: String?

    @Option(help: ArgumentHelp("SQLite database to use (default: a fresh temporary one).", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Channel configuration (JSON): a webhook and a GSM modem.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Virtual seconds per wall-clock second (default: as fast as possible).", valueName: "n"))
    var pace: Double?

    @Flag(name: .customLong("test-alarm"), help: "Run the whole chain once with the test flag in every message: SOS, countdown, sending, all clear, resume. Uses the person and contacts already in --db.")
    var testAlarm = false

    func validate() throws {
        if testAlarm, db == nil { throw ValidationError("--test-alarm needs --db with a configured person and contacts") }
        if !testAlarm, script == nil { throw ValidationError("give a drill script, or --test-alarm") }
        if let pace, !(pace > 0) { throw ValidationError("--pace must be positive") }
    }

    func run() async throws {
        let out = Terminal.standardOutput
        var temporary: String?
        let path: String
        if let db {
            path = db
        } else {
            let dir = NSTemporaryDirectory() + "detectord-drill-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            temporary = dir
            path = dir + "/drill.sqlite"
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }

        do {
            var options = DrillRunner.Options(databasePath: path)
            options.pace = pace
            if let config { options.channels = try Self.channels(from: config) }
            let parsed: DrillScript
            if testAlarm {
                options.isTest = true
                let store = try WorkflowStore(path: path)
                let machine = try store.workflow()
                guard machine.isProtecting else {
                    throw FallDetectError(.noData, "no protected person in the database: run a drill with start first", path: path)
                }
                guard try !store.contacts().isEmpty else { throw FallDetectError(.noData, "no contacts in the database", path: path) }
                options.startUTCNanoseconds = Int64(Date().timeIntervalSince1970 * 1e9)
                parsed = DrillScript(text: Self.testAlarmScript(countdown: machine.settings.manualCountdown), path: "(test alarm)")
            } else {
                parsed = try DrillScript(path: script!)
            }
            let runner = try DrillRunner(options: options) { out.write($0 + "\n") }
            if testAlarm { runner.authorizeTest() }
            try await runner.run(parsed)
        } catch let error as FallDetectError {
            Terminal.standardError.write("detectord drill: \(error)\n")
            throw ExitCode(65)
        }
    }

    /// The channels a configuration file names. Unknown keys are errors, so a typo cannot silently
    /// leave a channel out.
    static func channels(from path: String) throws(FallDetectError) -> [String: any AlertChannel] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FallDetectError(.io, "cannot read the channel configuration", path: path)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw FallDetectError(.malformedRow, "not a JSON object", path: path)
        }
        var channels: [String: any AlertChannel] = [:]
        for (name, value) in object {
            guard let settings = value as? [String: Any] else {
                throw FallDetectError(.malformedRow, "\(name) must be an object", path: path, field: name)
            }
            switch name {
            case "webhook":
                guard let text = settings["url"] as? String, let url = URL(string: text) else {
                    throw FallDetectError(.malformedRow, "webhook needs \"url\"", path: path, field: "webhook.url")
                }
                guard let secret = settings["secret"] as? String else {
                    throw FallDetectError(.malformedRow, "webhook needs \"secret\"", path: path, field: "webhook.secret")
                }
                channels[name] = try WebhookChannel(name: name, url: url, secret: Array(secret.utf8))
            case "sms":
                guard let device = settings["device"] as? String else {
                    throw FallDetectError(.malformedRow, "sms needs \"device\"", path: path, field: "sms.device")
                }
                channels[name] = GSMModemChannel(name: name, devicePath: device, baudRate: settings["baud"] as? Int ?? 115_200)
            default:
                throw FallDetectError(.malformedRow, "unknown channel \"\(name)\" (webhook, sms)", path: path, field: name)
            }
        }
        return channels
    }

    /// SOS, let the countdown run out, deliver, then stand down.
    static func testAlarmScript(countdown: Double) -> String {
        let end = Int(countdown) + 5
        return """
            {"at": 0, "do": "sos", "source": "api"}
            {"at": \(end), "do": "cancel"}
            {"at": \(end + 1), "do": "resume"}
            """
    }
}
