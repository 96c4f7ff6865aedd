import ArgumentParser
import FallDetect
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct CtlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Talk to the running daemon through its local API.",
        discussion: """
            ACTION is one of: status (the state, time left, sensor, detector, GNSS and keychain health), \
            events (follow the event stream until interrupted), sos, fine ("I'm fine" during the \
            countdown), call112 (silences the alarm; the countdown goes on), quit (after sending: \
            silences and opens the survey; needs the PIN first), survey didnt_fall|fell|no_help_needed, \
            cancel, resume, disarm PIN (read from standard input when not given), beep [SECONDS] (a test beep \
            on the keychain), press [single|double|triple] (presses a simulated keychain), and token (a new \
            login token for the page from other machines, shown once; the old one and its sessions stop \
            working; written to the database of --config, so it needs no API). Exit status 0 \
            when the daemon did it (or took it and retries: an SOS a full disk could not record yet), 3 when it needs the PIN, 1 when it does not apply now or the daemon cannot be reached.
            """)

    @Argument(help: ArgumentHelp("What to do.", valueName: "action"))
    var action: String

    @Argument(help: ArgumentHelp("The survey answer or the PIN.", valueName: "value"))
    var value: String?

    @Option(help: ArgumentHelp("The daemon's API.", valueName: "url"))
    var api: String = "http://127.0.0.1:8180"

    @Option(name: .shortAndLong, help: ArgumentHelp("token: the configuration file naming the database.", valueName: "file"))
    var config: String = "/etc/detectord/detectord.toml"

    @Option(help: ArgumentHelp("token: this database instead of the configuration's.", valueName: "path"))
    var db: String?

    static let posts = ["sos", "fine", "call112", "quit", "cancel", "resume", "survey", "disarm", "beep", "press", "token"]

    func validate() throws {
        guard action == "status" || action == "events" || Self.posts.contains(action) else {
            throw ValidationError("unknown action \"\(action)\"; one of status, events, \(Self.posts.joined(separator: ", "))")
        }
        if action == "survey", value == nil { throw ValidationError("survey needs an answer: didnt_fall, fell or no_help_needed") }
        guard URL(string: api)?.host != nil else { throw ValidationError("--api must be a URL such as http://127.0.0.1:8180") }
    }

    func run() async throws {
        let base = api.hasSuffix("/") ? String(api.dropLast()) : api
        switch action {
        case "status":
            let (data, status) = try await Self.send(URLRequest(url: URL(string: base + "/api/status")!))
            Terminal.standardOutput.write(Self.pretty(data))
            if status != 200 { throw ExitCode(1) }
        case "events":
            try await follow(URL(string: base + "/api/events")!)
        case "token":
            try issueToken()
        default:
            var body: [String: Any] = [:]
            if action == "survey" { body["answer"] = value }
            if action == "disarm" { body["pin"] = value ?? Self.readPIN() }
            if action == "beep" { body["seconds"] = Double(value ?? "2") ?? 2 }
            if action == "press" { body["pattern"] = value ?? "single" }
            let path = action == "beep" || action == "press" ? "keychain/" + action : action
            var request = URLRequest(url: URL(string: base + "/api/" + path)!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            let (data, status) = try await Self.send(request)
            Terminal.standardOutput.write(Self.pretty(data))
            switch status {
            case 200, 202: return
            case 403: throw ExitCode(3)
            default: throw ExitCode(1)
            }
        }
    }

    /// A new login token straight into the database: the daemon checks it at each login.
    private func issueToken() throws {
        // A database this creates (before the daemon's first start) must be as private as the daemon's.
        PrivateFiles.restrict()
        var path = db
        if path == nil {
            do { path = try DaemonConfiguration.load(path: config).storage.database } catch {
                for issue in error.issues { Terminal.standardError.write("\(issue)\n") }
                throw ExitCode(65)
            }
        }
        let token = try LoginTokens(store: WorkflowStore(path: path ?? "")).issue()
        Terminal.standardOutput.write("\(token)\n")
        Terminal.standardError.write("Log in to the device's page from other machines with this token; it is not shown again.\n")
    }

    /// The PIN from standard input: on a terminal with a prompt and without echo, so it is not
    /// left on the screen (or in a screen recording) for whoever looks next.
    static func readPIN() -> String {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) ?? "" }
        Terminal.standardError.write("PIN: ")
        var saved = termios()
        let quiet = tcgetattr(STDIN_FILENO, &saved) == 0
        if quiet {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        defer {
            if quiet { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            Terminal.standardError.write("\n")
        }
        return readLine(strippingNewline: true) ?? ""
    }

    static func send(_ request: URLRequest) async throws -> (Data, Int) {
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch {
            Terminal.standardError.write("detectord ctl: cannot reach the daemon at \(request.url?.absoluteString ?? "?"): \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
    }

    /// Prints each event's JSON as it arrives, until the daemon closes the stream.
    func follow(_ url: URL) async throws {
        let printer = EventStreamPrinter()
        let session = URLSession(configuration: .ephemeral, delegate: printer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let error = await printer.run(session.dataTask(with: url))
        if let refused = error as? EventStreamPrinter.Refused {
            Terminal.standardError.write("detectord ctl: no event stream at \(url.absoluteString): \(refused)\n")
            throw ExitCode(1)
        }
        if let error {
            Terminal.standardError.write("detectord ctl: the event stream ended: \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
    }

    static func pretty(_ data: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: data),
            let text = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return String(decoding: data, as: UTF8.self) + "\n" }
        return String(decoding: text, as: UTF8.self) + "\n"
    }
}
