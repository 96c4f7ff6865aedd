import ArgumentParser
import FallDetect
import Foundation

struct DrillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "Run a scripted emergency timeline on a virtual clock against the real workflow and database.",
        discussion: """
            SCRIPT is JSON lines {"at": SECONDS, "do": ACTION, ...}. Actions: start {name, phone, country}, \
            contact {name, phone, pin (once a PIN is set)}, set_pin {pin, duress_pin?}, detect {kind: fall|crash}, sos {source}, im_fine, \
            quit, call112, survey {answer: didnt_fall|fell|no_help_needed}, cancel, resume, disarm {pin}, \
            position {lat, lon, accuracy_m, speed_mps}, network {up}, battery {percent}, crash, advance. \
            The journal is printed as JSON lines: transition, message, alarm, note, restart and error. \
            Invalid lines are reported with their number and skipped. Run again with the same --db, a \
            drill that was killed resumes where its database says it was. Messages go to the console channel, \
            which fails while the script has the network down; other channels are not configurable yet. \
            Examples are in Datasets/drills/.
            """)

    @Argument(help: ArgumentHelp("The drill script (JSON lines).", valueName: "script"))
    var script: String?

    @Option(help: ArgumentHelp("SQLite database to use (default: a fresh temporary one).", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Virtual seconds per wall-clock second (default: as fast as possible).", valueName: "n"))
    var pace: Double?

    @Flag(name: .customLong("test-alarm"), help: "Run the whole chain once with the test flag in every message: SOS, countdown, sending, all clear, resume. Uses the person and contacts already in --db.")
    var testAlarm = false

    func validate() throws {
        if testAlarm, db == nil { throw ValidationError("--test-alarm needs --db with a configured person and contacts") }
        if !testAlarm, script == nil { throw ValidationError("give a drill script, or --test-alarm") }
        if let pace, !(pace > 0) { throw ValidationError("--pace must be positive") }
    }

    func run() throws {
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
            try runner.run(parsed)
        } catch let error as FallDetectError {
            Terminal.standardError.write("detectord drill: \(error)\n")
            throw ExitCode(65)
        }
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
