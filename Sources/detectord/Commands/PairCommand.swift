import ArgumentParser
import DeviceLink
import FallDetect
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair a Bluetooth LE keychain button with the person on this device.",
        discussion: """
            Scans for keychain buttons (iTag and alike), lists them with their signal strength, and \
            for the one chosen (or --address) connects, makes it beep ("Is this your keychain?") and \
            waits for a press of its button to confirm. The keychain is then bound to the person in \
            the configuration, on this device, in the workflow database; a keychain bound to someone \
            else, or a second keychain, is refused. A running daemon is told to use it at once. \
            --forget unbinds it. --simulate pairs with simulated tags (no Bluetooth needed). Exit \
            status 0 when paired or forgotten, 1 when no keychain was paired, 65 for a bad configuration.
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The configuration file (person, database, [keychain]).", valueName: "file"))
    var config: String = "/etc/detectord/detectord.toml"

    @Option(help: ArgumentHelp("Use this database instead of [storage] database.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Pair this keychain without scanning.", valueName: "AA:BB:CC:DD:EE:FF"))
    var address: String?

    @Option(help: ArgumentHelp("The address type of --address: public (iTags) or random.", valueName: "type"))
    var addressType: BluetoothAddressType = .public

    @Option(help: ArgumentHelp("Take this entry of the list without asking (1 is the strongest signal).", valueName: "n"))
    var choose: Int?

    @Option(help: ArgumentHelp("Seconds to scan.", valueName: "seconds"))
    var scanSeconds: Double = 8

    @Option(help: ArgumentHelp("Seconds to wait for the confirming press.", valueName: "seconds"))
    var confirmSeconds: Double = 30

    @Flag(help: "Unbind this device's keychain.")
    var forget = false

    @Flag(help: "Pair with simulated keychains (a near and a far iTag) instead of the radio.")
    var simulate = false

    @Option(help: ArgumentHelp("The running daemon's API, told about the change.", valueName: "url"))
    var api: String = "http://127.0.0.1:8180"

    func validate() throws {
        if let address, BluetoothAddress(address) == nil { throw ValidationError("--address takes AA:BB:CC:DD:EE:FF, got \"\(address)\"") }
        guard scanSeconds > 0, scanSeconds <= 120 else { throw ValidationError("--scan-seconds must be from 0 to 120") }
        guard confirmSeconds > 0, confirmSeconds <= 300 else { throw ValidationError("--confirm-seconds must be from 0 to 300") }
        if let choose, choose < 1 { throw ValidationError("--choose counts from 1") }
    }

    func run() async throws {
        let settings: DaemonConfiguration
        do { settings = try DaemonConfiguration.load(path: config) } catch {
            for issue in error.issues { Terminal.standardError.write("\(issue)\n") }
            throw ExitCode(65)
        }
        let store = try WorkflowStore(path: db ?? settings.storage.database)
        let out = Terminal.standardOutput
        if forget {
            let gone = try store.transaction { tx in try tx.forgetKeychain(at: WorkflowService.utcNow()) }
            out.write(gone.map { "Forgot keychain \($0.name) \($0.address).\n" } ?? "No keychain is paired on this device.\n")
            await tellDaemon()
            return
        }
        // The wearer from the file, or the one set up on the page.
        guard let person = try settings.person?.person ?? store.workflow().person else {
            Terminal.standardError.write("detectord pair: nobody is set up to wear this device yet: add [person] to \(config) or set the wearer up on the device's page\n")
            throw ExitCode(1)
        }
        let owner = person.phone.e164
        if let mine = try store.snapshot({ try $0.keychainBinding() }), mine.address != address?.uppercased() {
            Terminal.standardError.write("detectord pair: this device already has keychain \(mine.name) \(mine.address); run detectord pair --forget first\n")
            throw ExitCode(1)
        }
        let radio: any KeychainRadio = simulate || settings.keychain.kind == .simulated
            ? try SimulatedKeychainRadio.demo() : KernelKeychainRadio()
        let pairing = KeychainPairing(radio: radio, profile: settings.keychain.profile)
        let interactive = choose == nil && isatty(0) != 0
        while true {
            guard let candidate = try await pick(pairing, interactive: interactive) else { throw ExitCode(1) }
            if let bound = try store.snapshot({ try $0.binding(of: candidate.address.description) }), bound.person != owner {
                Terminal.standardError.write("detectord pair: keychain \(candidate.address) is already bound to another person (\(bound.person)); it must be forgotten there first\n")
                throw ExitCode(1)
            }
            out.write("Connecting to \(candidate.name) \(candidate.address)…\n")
            do {
                let confirmation = try await pairing.confirm(candidate, confirmWithin: confirmSeconds) {
                    out.write("Is this your keychain? It is beeping now: press its button to confirm (\(Int(confirmSeconds)) s).\n")
                }
                let binding = KeychainBinding(address: candidate.address.description, addressType: candidate.addressType.rawValue,
                                              name: candidate.name, person: owner, device: "", boundAt: WorkflowService.utcNow())
                do {
                    try store.transaction { tx in try tx.bindKeychain(binding) }
                } catch let error as FallDetectError {
                    Terminal.standardError.write("detectord pair: \(error.message)\n")
                    throw ExitCode(1)
                }
                let battery = confirmation.battery.map { " Battery \($0) %." } ?? ""
                out.write("Paired: \(candidate.name) \(candidate.address) belongs to \(person.fullName) on this device.\(battery)\n")
                await tellDaemon()
                return
            } catch let error as KeychainPairingError {
                Terminal.standardError.write("\(error)\n")
                guard interactive, Self.ask("Try again or cancel? [r/q] ", allowed: ["r", "q"]) == "r" else { throw ExitCode(1) }
            }
        }
    }

    /// Scans and lets the person choose; nil when they cancel or nothing is found.
    private func pick(_ pairing: KeychainPairing, interactive: Bool) async throws -> KeychainCandidate? {
        if let address, let parsed = BluetoothAddress(address) {
            return KeychainCandidate(address: parsed, addressType: addressType, name: "keychain", rssi: nil)
        }
        let err = Terminal.standardError
        while true {
            let started = ContinuousClock.now
            let seconds = scanSeconds
            let found: [KeychainCandidate]
            do {
                found = try await pairing.scan(seconds: seconds) { count in
                    let elapsed = Int((ContinuousClock.now - started).components.seconds)
                    err.write("\rScanning for keychains… \(elapsed)/\(Int(seconds)) s, \(count) found ")
                }
                err.write("\n")
            } catch {
                err.write("\ndetectord pair: \(error)\n")
                return nil
            }
            if found.isEmpty {
                err.write("Device not found: make sure the keychain is on (hold its button until it beeps twice) and near.\n")
                guard interactive, Self.ask("Try again or cancel? [r/q] ", allowed: ["r", "q"]) == "r" else { return nil }
                continue
            }
            let out = Terminal.standardOutput
            for (n, candidate) in found.enumerated() {
                let bars = String(repeating: "▮", count: candidate.bars) + String(repeating: "▯", count: 4 - candidate.bars)
                let signal = candidate.rssi.map { "\($0) dBm" } ?? "?"
                out.write("  \(n + 1)  \(candidate.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(candidate.address)  \(bars) \(signal)\n")
            }
            if let choose {
                guard choose <= found.count else {
                    err.write("detectord pair: --choose \(choose), but \(found.count) found\n")
                    return nil
                }
                return found[choose - 1]
            }
            guard interactive else {
                err.write("detectord pair: choose one with --choose N or --address\n")
                return nil
            }
            let answers = (1...found.count).map(String.init) + ["r", "q"]
            switch Self.ask("Choose a keychain [1-\(found.count)], r to scan again, q to cancel: ", allowed: answers) {
            case "r": continue
            case "q", nil: return nil
            case let text?: return Int(text).map { found[$0 - 1] }
            }
        }
    }

    private static func ask(_ prompt: String, allowed: [String]) -> String? {
        while true {
            Terminal.standardOutput.write(prompt)
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
            if allowed.contains(line) { return line }
        }
    }

    /// A running daemon reconnects to the new keychain (or lets go of the forgotten one).
    private func tellDaemon() async {
        let base = api.hasSuffix("/") ? String(api.dropLast()) : api
        guard let url = URL(string: base + "/api/keychain/reload") else { return }
        var request = URLRequest(url: url, timeoutInterval: 3)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{}".utf8)
        if let (_, response) = try? await URLSession.shared.data(for: request), (response as? HTTPURLResponse)?.statusCode == 200 {
            Terminal.standardOutput.write("The running daemon now uses it.\n")
        } else {
            Terminal.standardOutput.write("No daemon answered at \(base): it uses the keychain when it starts.\n")
        }
    }
}

extension BluetoothAddressType: ExpressibleByArgument {}
