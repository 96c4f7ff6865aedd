import ArgumentParser
import FallDetect
import Foundation

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the emergency workflow's state from its database.",
        discussion: """
            Reads the SQLite database the workflow keeps (the one `detectord run` or a drill writes) \
            and prints the state, the countdown or the time to the next keychain message, the \
            tracking time left ([workflow] tracking_minutes from the alert's delivery, 30 by \
            default), the contacts, messages waiting in the outbox, channels that are failing and \
            the latest incidents. It only reads.
            """)

    @Option(help: ArgumentHelp("The workflow database.", valueName: "path"))
    var db: String

    @Option(help: ArgumentHelp("Wall-clock time to report for, seconds since 1970 (default: now); drills use a virtual clock.", valueName: "seconds"))
    var at: Double?

    func run() throws {
        guard FileManager.default.fileExists(atPath: db) else {
            Terminal.standardError.write("detectord status: \(db): no such database\n")
            throw ExitCode(66)
        }
        do {
            let store = try WorkflowStore(path: db)
            Terminal.standardOutput.write(try Self.report(store, at: Int64((at ?? Date().timeIntervalSince1970) * 1e9)))
        } catch let error as FallDetectError {
            Terminal.standardError.write("detectord status: \(error)\n")
            throw ExitCode(65)
        }
    }

    static func report(_ store: WorkflowStore, at now: Int64) throws -> String {
        let machine = try store.workflow()
        var lines: [String] = []
        lines.append("protection: " + (machine.person.map { "on for \($0.fullName) (\($0.phone), \($0.country))" } ?? "off"))
        var state = "state:      \(machine.state.rawValue)"
        if machine.underDuress { state += " (the device shows \(machine.displayedState.rawValue): duress PIN used)" }
        lines.append(state)
        if let left = machine.countdownRemaining(at: now) { lines.append("countdown:  \(clock(left)) left") }
        if let next = machine.nextKeychainMessage(at: now) { lines.append("keychain:   next message in \(clock(next))") }
        lines.append("alarm:      \(machine.alarmOn ? "on" : "off"), tracking \(machine.isTracking ? "on" : "off")")
        if let left = machine.trackingRemaining(at: now), let end = machine.trackingEndsAt {
            lines.append("tracking:   \(clock(left)) left (until \(timestamp(end)))")
        } else if machine.isTracking {
            lines.append("tracking:   until \(Int(machine.settings.trackingDuration / 60)) min after the alert is delivered")
        }
        let contacts = try store.contacts()
        lines.append("contacts:   \(contacts.isEmpty ? "none" : contacts.map { "\($0.name) \($0.phone) (\($0.channel))" }.joined(separator: ", "))")
        let waiting = try store.waiting()
        lines.append("outbox:     \(waiting.count) message\(waiting.count == 1 ? "" : "s") waiting")
        for health in try store.channelHealth() {
            let how = health.isDown ? "down" : "failing"
            lines.append("channel:    \(health.channel) \(how) since \(timestamp(health.failingSince)), next try at \(timestamp(health.nextProbeAt))")
        }
        for incident in try store.incidents().suffix(3) {
            var text = "incident \(incident.id): \(incident.trigger) at \(timestamp(incident.startedAt))"
            if let sent = incident.sentAt { text += ", sent at \(timestamp(sent))" }
            text += incident.outcome.map { ", ended: \($0)" } ?? ", ongoing"
            lines.append(text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// mm:ss, as the keychain countdown is shown.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let m = s / 60
        let r = s % 60
        return "\(m < 10 ? "0" : "")\(m):\(r < 10 ? "0" : "")\(r)"
    }

    static func timestamp(_ ns: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(ns) / 1e9))
    }
}
