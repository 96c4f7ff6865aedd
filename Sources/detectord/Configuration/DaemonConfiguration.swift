import FallDetect
import Foundation
import TOMLKit

/// Everything `detectord run` reads from its one TOML file (`config/detectord.example.toml`
/// documents each field). Values are checked when the file is read, so a daemon that got one can
/// start; every problem is reported at once, each with its line and field.
struct DaemonConfiguration: Sendable, Equatable {
    /// nil: the wearer is set up on the device's page and kept in its database.
    var person: PersonSettings?
    /// One to `ContactSettings.maximumCount`, each on a configured channel, no number twice; nil
    /// when the file gives none, so the page manages them. Given here, the file is the authority
    /// and the page shows them without letting anyone change them.
    var contacts: [ContactSettings]?
    var pin: PINSettings
    var detector: DetectorSettings
    var sensor: SensorSettings
    var gnss: GNSSSettings
    var keychain = KeychainSettings()
    var workflow: WorkflowConfiguration
    var channels: ChannelSettings
    var storage: StorageSettings
    var api: APISettings
    var log: LogSettings

    static let keys = ["person", "contacts", "pin", "detector", "sensor", "gnss", "keychain", "workflow", "channels", "storage", "api", "log"]

    /// Reads and checks the file at `path`; relative paths in it are taken from its folder.
    static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationErrors) -> DaemonConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try ReferencedFile.read(path)
        } catch {
            throw ConfigurationErrors([ConfigurationIssue(path: path, message: error.message)])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationErrors([ConfigurationIssue(path: path, message: "is not UTF-8 text, as TOML must be")])
        }
        return try parse(text: text, path: path, environment: environment)
    }

    /// Checks `text` as the contents of `path` (which names it in issues and anchors its relative
    /// paths).
    static func parse(text: String, path: String, environment: [String: String]) throws(ConfigurationErrors) -> DaemonConfiguration {
        let top = try ConfigurationTable.top(text: text, path: path, environment: environment)
        let context = top.context
        let configuration = read(top)
        guard context.issues.isEmpty, let configuration else {
            // Every reader that gives up reports why; this only guards against one that does not.
            let issues = context.issues.isEmpty ? [ConfigurationIssue(path: path, message: "could not be read")] : context.sortedIssues
            throw ConfigurationErrors(issues)
        }
        return configuration
    }

    /// Reads every table, then the rules that join them; nil when anything was reported.
    private static func read(_ root: ConfigurationTable) -> DaemonConfiguration? {
        root.rejectUnknownKeys(known: keys)
        // Both optional: a device set up on its page keeps the wearer and contacts in its database.
        let personGiven = root.contains("person")
        let person = personGiven ? root.table("person").flatMap(PersonSettings.init) : nil
        let contactsGiven = root.contains("contacts")
        let contactTables = root.tables("contacts")
        if contactsGiven, contactTables.isEmpty, root.table["contacts"]?.array?.isEmpty ?? true {
            root.missing("contacts", "at least one [[contacts]] entry: someone to alert (or no contacts key, to set them on the page)")
        }
        for (n, table) in contactTables.enumerated() where n >= ContactSettings.maximumCount {
            root.context.report(table.field, "one contact too many: at most \(ContactSettings.maximumCount), this is number \(n + 1)", at: .key)
        }
        let contacts = contactTables.map(ContactSettings.init)
        let pin = root.contains("pin") ? root.table("pin").flatMap(PINSettings.init) : PINSettings()
        let detector = root.contains("detector") ? root.table("detector").flatMap(DetectorSettings.init) : DetectorSettings()
        let sensor = root.table("sensor", required: "a [sensor] table with source = \"i2c\" or \"replay\"").flatMap(SensorSettings.init)
        // From the text, so a [sensor] table with other issues still decides this check.
        // A replay carries its fixes; so does a simulated chip's recorded motion.
        let replaying = root.table["sensor"]?["source"]?.string.map { $0 == "replay" || $0 == "simulated" }
        let gnss = root.contains("gnss") ? root.table("gnss").flatMap { GNSSSettings($0, replaying: replaying) } : GNSSSettings.standard
        let keychain = root.contains("keychain") ? root.table("keychain").flatMap(KeychainSettings.init) : KeychainSettings()
        let workflow = root.contains("workflow") ? root.table("workflow").flatMap(WorkflowConfiguration.init) : WorkflowConfiguration()
        let channels = root.contains("channels") ? root.table("channels").flatMap(ChannelSettings.init) : ChannelSettings()
        let storage = root.contains("storage") ? root.table("storage").flatMap(StorageSettings.init) : StorageSettings()
        let api = root.contains("api") ? root.table("api").flatMap(APISettings.init) : APISettings()
        let log = root.contains("log") ? root.table("log").flatMap(LogSettings.init) : LogSettings()

        let declared = channels.map { Set($0.configured) } ?? declaredChannels(root)
        checkContacts(contacts, tables: contactTables, channels: declared, context: root.context)

        guard person != nil || !personGiven else { return nil }
        guard let pin, let detector, let sensor, let gnss, let keychain, let workflow, let channels, let storage, let api, let log
        else { return nil }
        let validContacts = contacts.compactMap { $0 }
        guard validContacts.count == contacts.count, !validContacts.isEmpty || !contactsGiven else { return nil }
        return DaemonConfiguration(
            person: person, contacts: contactsGiven ? validContacts : nil, pin: pin, detector: detector, sensor: sensor, gnss: gnss, keychain: keychain,
            workflow: workflow, channels: channels, storage: storage, api: api, log: log)
    }

    /// Each contact's channel is configured, and no number is given twice (one person alerted
    /// twice, or a copy-paste that left someone out).
    private static func checkContacts(
        _ contacts: [ContactSettings?], tables: [ConfigurationTable], channels: Set<AlertChannelKind>, context: ConfigurationContext
    ) {
        var seen: [PhoneNumber: String] = [:]
        for (contact, table) in zip(contacts, tables) {
            // From the text, so a contact with other issues is still compared.
            if let phone = table.table["phone"]?.string.flatMap(PhoneNumber.init) {
                if let first = seen[phone] {
                    context.report(table.field("phone"), "\(phone) is already the number of \(first)")
                } else {
                    seen[phone] = table.field
                }
            }
            guard let contact else { continue }
            if !channels.contains(contact.channel) {
                let name = contact.channel.rawValue
                let how = contact.channel == .console ? "[channels.console] enabled = true" : "a [channels.\(name)] table"
                let given = table.contains("channel") ? "\"\(name)\"" : "\"\(name)\" (the default)"
                context.report(table.field("channel"), "\(given) is not configured; add \(how) or choose a configured channel")
            }
        }
    }

    /// The channels the file declares when `[channels]` had issues of its own (reported there), so
    /// contacts are not also blamed for them.
    private static func declaredChannels(_ root: ConfigurationTable) -> Set<AlertChannelKind> {
        let channels = root.table["channels"]?.table
        var declared: Set<AlertChannelKind> = []
        if channels?["console"]?["enabled"]?.bool != false { declared.insert(.console) }
        if channels?["webhook"] != nil { declared.insert(.webhook) }
        if channels?["sms"] != nil { declared.insert(.sms) }
        return declared
    }
}
