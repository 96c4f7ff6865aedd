import FallDetect
import Foundation
import Testing
@testable import detectord

@Suite struct DaemonConfigurationTests {
    /// A valid file with only what is required; its line numbers are used below:
    /// 1 [person], 7 [[contacts]], 8 its phone, 11 [sensor], 12 source, 14 [sensor.i2c], 15 bus.
    static let minimal = """
        [person]
        name = "Ana Pereira"
        phone = "+351912345678"
        country = "PT"

        # a contact
        [[contacts]]
        phone = "+351913333333"
        name = "Rui"
        channel = "console"
        [sensor]
        source = "i2c"

        [sensor.i2c]
        bus = 1

        """

    /// A folder of its own for files a configuration names; removed by the caller.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The issues of `text`; none when it parses.
    static func issues(_ text: String, path: String = "/tmp/detectord.toml", environment: [String: String] = [:]) -> [ConfigurationIssue] {
        do {
            _ = try DaemonConfiguration.parse(text: text, path: path, environment: environment)
            return []
        } catch {
            return error.issues
        }
    }

    /// The one issue of `text` naming `field`.
    static func issue(_ field: String, in text: String, path: String = "/tmp/detectord.toml", environment: [String: String] = [:]) -> ConfigurationIssue? {
        let found = issues(text, path: path, environment: environment)
        let matching = found.filter { $0.field == field }
        #expect(matching.count == 1, "\(field) in \(found)")
        return matching.first
    }

    @Test func theExampleLoadsWithItsWebhookSecretFromTheEnvironment() throws {
        let path = DetectordProcess.packageRoot.appendingPathComponent("config/detectord.example.toml").path
        let secret = "example-secret-0123456789"
        let c = try DaemonConfiguration.load(path: path, environment: ["DETECTORD_WEBHOOK_SECRET": secret])
        #expect(c.person?.person.fullName == "Ana Pereira")
        #expect(c.person?.person.phone.e164 == "+351912345678")
        #expect(c.contacts?.map(\.channel) == [.webhook, .sms])
        #expect(c.detector.profile.name == "walking")
        #expect(c.sensor.source == .i2c(I2CSensorSettings(bus: 1, address: nil, chip: .auto)))
        #expect(c.sensor.rateHz == 200)
        #expect(c.gnss == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(c.workflow.settings.countdown == 120)
        #expect(c.workflow.settings.manualCountdown == 30)
        #expect(c.workflow.settings.trackingDuration == 30 * 60)
        #expect(c.channels.webhook?.secret.bytes == Array(secret.utf8))
        #expect(c.channels.webhook?.secret.origin == .environment("DETECTORD_WEBHOOK_SECRET"))
        #expect(c.channels.sms == SMSSettings(device: "/dev/ttyUSB2", baud: 115_200))
        #expect(c.api.address == "127.0.0.1:8180")
        #expect(c.log.level == .info)
    }

    @Test func theDemoHasASimulatedMPU6050MeasuringTheBikeCrashWithItsGPS() throws {
        let root = DetectordProcess.packageRoot
        let c = try DaemonConfiguration.load(path: root.appendingPathComponent("config/demo.toml").path, environment: [:])
        guard case .simulated(let simulated) = c.sensor.source else {
            Issue.record("the demo's chip is simulated, got \(c.sensor.source)")
            return
        }
        #expect(simulated.chip.chip == .mpu6050)
        #expect(simulated.stopAfterMotion)
        #expect(simulated.motion == root.appendingPathComponent("Datasets/demo/bike-crash.detrec").standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: simulated.motion ?? ""))
        #expect(c.gnss == .recording)
        #expect(c.detector.profile.name == "cycling")
        #expect(c.workflow.demo)
        #expect(c.workflow.settings.countdown == 15)
        #expect(c.workflow.settings.trackingDuration == 30)
        #expect(c.workflow.settings.trackingInterval == 10)
        #expect(c.channels.configured == [.console])
        #expect(c.contacts?.map(\.channel) == [.console])
    }

    @Test func axisMappingTakesAutoOrAMapping() throws {
        let auto = Self.minimal.replacingOccurrences(of: "source = \"i2c\"\n", with: "source = \"i2c\"\naxis_mapping = \"auto\"\n")
        #expect(try DaemonConfiguration.parse(text: auto, path: "/tmp/detectord.toml", environment: [:]).sensor.axes == .auto)
        let fixed = Self.minimal.replacingOccurrences(of: "source = \"i2c\"\n", with: "source = \"i2c\"\naxis_mapping = \"x=+z,y=-y,z=+x\"\n")
        #expect(try DaemonConfiguration.parse(text: fixed, path: "/tmp/detectord.toml", environment: [:]).sensor.axes == AxisChoice("x=+z,y=-y,z=+x"))
    }

    @Test func leftOutTablesTakeTheirDefaults() throws {
        let c = try DaemonConfiguration.parse(text: Self.minimal, path: "/tmp/detectord.toml", environment: [:])
        #expect(c.detector == DetectorSettings(profile: .walking, sensitivity: .standard, modelPath: nil))
        #expect(c.sensor.axes == .fixed(.identity))
        #expect(c.sensor.stallSeconds == 1)
        #expect(c.gnss == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(c.workflow == WorkflowConfiguration())
        #expect(c.channels == ChannelSettings(console: true, webhook: nil, sms: nil))
        #expect(c.storage.database == "/var/lib/detectord/detectord.sqlite")
        #expect(c.storage.positionRetentionHours == 24)
        #expect(c.api == APISettings(host: "127.0.0.1", port: 8180))
        #expect(c.pin.hash == nil)
    }

    @Test func positionRetentionIsFromAMinuteToAYear() throws {
        func storage(_ hours: String) throws -> StorageSettings {
            try DaemonConfiguration.parse(text: Self.minimal + "\n[storage]\nposition_retention_hours = \(hours)\n", path: "/tmp/detectord.toml", environment: [:]).storage
        }
        #expect(try storage("48").positionRetentionHours == 48)
        #expect(try storage("0.5").positionRetentionHours == 0.5)
        let error = #expect(throws: ConfigurationErrors.self) { try storage("0") }
        #expect(error?.description.contains("storage.position_retention_hours") == true, "\(String(describing: error))")
        #expect(throws: ConfigurationErrors.self) { try storage("9000") }
    }

    @Test func sensitivityMovesTheProfile() throws {
        let text = Self.minimal + "[detector]\nprofile = \"cycling\"\nsensitivity = \"high\"\n"
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/detectord.toml", environment: [:])
        #expect(c.detector.profile == DetectionProfile.cycling.with(sensitivity: .high))
        #expect(c.detector.profile != DetectionProfile.cycling)
    }

    @Test func aTOMLSyntaxErrorNamesItsLineAndColumn() throws {
        let issues = Self.issues("[person]\nname = \"Ana Pereira\"\nphone == \"+351912345678\"\n")
        #expect(issues.count == 1)
        #expect(issues.first?.line == 3)
        #expect(issues.first?.column != nil)
        #expect(issues.first?.message.hasPrefix("not valid TOML") == true)
    }

    @Test func aWrongTypeNamesTheFieldItsLineAndWhatIsExpected() throws {
        let text = Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\nrate_hz = \"200\"")
        let issue = try #require(Self.issue("sensor.rate_hz", in: text))
        #expect(issue.line == 13)
        #expect(issue.column == 11)
        #expect(issue.message == "is text; expected a number from 10 to 10000")
        #expect(issue.description == "/tmp/detectord.toml:13:11: sensor.rate_hz: is text; expected a number from 10 to 10000")
    }

    @Test func anUnknownKeyIsAnErrorWithTheKeyItProbablyMeant() throws {
        let text = Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\nrat_hz = 100")
        let issue = try #require(Self.issue("sensor.rat_hz", in: text))
        #expect(issue.line == 13)
        #expect(issue.column == 1)
        #expect(issue.message.contains("did you mean rate_hz?"))
    }

    @Test func anUnknownTableIsAnError() throws {
        let issue = try #require(Self.issue("chanels", in: Self.minimal + "[chanels.sms]\ndevice = \"/dev/ttyUSB2\"\n"))
        #expect(issue.line == 16)
        #expect(issue.message.contains("did you mean channels?"))
    }

    @Test func valuesOutOfRangeSayTheRange() throws {
        let text = Self.minimal.replacingOccurrences(of: "bus = 1", with: "bus = 1\naddress = 0x80")
        let issue = try #require(Self.issue("sensor.i2c.address", in: text))
        #expect(issue.line == 16)
        #expect(issue.message == "is 0x80; expected a whole number from 0x08 to 0x77")
        let rate = try #require(Self.issue("sensor.rate_hz", in: Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\nrate_hz = 5")))
        #expect(rate.message == "is 5; expected a number from 10 to 10000")
    }

    @Test func badPhoneNumbersAreNamedWithTheirContact() throws {
        let text = Self.minimal.replacingOccurrences(of: "+351913333333", with: "0913 333 333")
        let issue = try #require(Self.issue("contacts[1].phone", in: text))
        #expect(issue.line == 8)
        #expect(issue.message.contains("is not an E.164 number"))
        let person = try #require(Self.issue("person.phone", in: Self.minimal.replacingOccurrences(of: "+351912345678", with: "351912345678")))
        #expect(person.line == 3)
    }

    @Test func theWearerIsToldAfterTheConfiguredMinutesOrNever() throws {
        let told = try DaemonConfiguration.parse(text: Self.minimal + "[detector]\nnot_worn_message_minutes = 45\n", path: "/tmp/d.toml", environment: [:])
        #expect(told.detector.notWornMessageMinutes == 45)
        let never = try DaemonConfiguration.parse(text: Self.minimal + "[detector]\nnot_worn_message_minutes = 0\n", path: "/tmp/d.toml", environment: [:])
        #expect(never.detector.notWornMessageMinutes == nil)
        let issue = try #require(Self.issue("detector.not_worn_message_minutes", in: Self.minimal + "[detector]\nnot_worn_message_minutes = -5\n"))
        #expect(issue.line == 17)
    }

    @Test func unknownProfileSensitivityAndChannelListTheChoices() throws {
        let text = Self.minimal.replacingOccurrences(of: "channel = \"console\"", with: "channel = \"pigeon\"")
            + "[detector]\nprofile = \"running\"\nsensitivity = \"extreme\"\n"
        let issues = Self.issues(text)
        #expect(issues.map(\.field) == ["contacts[1].channel", "detector.profile", "detector.sensitivity"])
        #expect(issues.map(\.line) == [10, 17, 18])
        #expect(issues[0].message == "\"pigeon\" is not one of console, webhook, sms")
        #expect(issues[1].message == "\"running\" is not one of walking, cycling, motorcycling, car")
        #expect(issues[2].message == "\"extreme\" is not one of low, standard, high")
    }

    @Test func aContactsChannelMustBeConfigured() throws {
        let text = Self.minimal.replacingOccurrences(of: "channel = \"console\"", with: "channel = \"sms\"")
        let issue = try #require(Self.issue("contacts[1].channel", in: text))
        #expect(issue.line == 10)
        #expect(issue.message.contains("\"sms\" is not configured"))
        let withModem = text + "[channels.sms]\ndevice = \"/dev/ttyUSB2\"\n"
        #expect(Self.issues(withModem).isEmpty)
        let consoleOff = Self.minimal + "[channels.console]\nenabled = false\n"
        #expect(try #require(Self.issue("contacts[1].channel", in: consoleOff)).message.contains("\"console\" is not configured"))
    }

    @Test func atMostFiveContactsEachWithItsOwnNumber() throws {
        var text = Self.minimal
        for n in 2...7 {
            text += "[[contacts]]\nname = \"Contact \(n)\"\nphone = \"+35191000000\(n)\"\nchannel = \"console\"\n"
        }
        text += "[[contacts]]\nname = \"Rui twice\"\nphone = \"+351913333333\"\nchannel = \"console\"\n"
        let issues = Self.issues(text)
        #expect(issues.map(\.field) == ["contacts[6]", "contacts[7]", "contacts[8]", "contacts[8].phone"])
        #expect(issues[0].line == 32)
        #expect(issues[0].message == "one contact too many: at most 5, this is number 6")
        #expect(issues[3].line == 42)
        #expect(issues[3].message == "+351913333333 is already the number of contacts[1]")
    }

    @Test func missingRequiredTablesAndFieldsAreNamed() throws {
        let issues = Self.issues("[person]\nname = \"Ana Pereira\"\n")
        #expect(issues.map(\.field) == ["sensor", "person.phone", "person.country"])
        #expect(issues[0].line == nil)
        #expect(issues[1].line == 1, "at the table that misses it")
        #expect(issues[1].description.hasPrefix("/tmp/detectord.toml:1:1: person.phone: is required"))
        #expect(issues[0].description.hasPrefix("/tmp/detectord.toml: sensor: is required"))
    }

    @Test func theSourcesTableIsRequiredAndTheRecordingNeedsAReplay() throws {
        let text = Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"replay\"") + "[gnss]\nsource = \"recording\"\n"
        let missing = try #require(Self.issue("sensor.replay", in: text))
        #expect(missing.line == 11)
        #expect(missing.message.contains("[sensor.replay]"))

        let recording = try #require(Self.issue("gnss.source", in: Self.minimal + "[gnss]\nsource = \"recording\"\n"))
        #expect(recording.line == 17)
        #expect(recording.message.contains("sensor.source = \"replay\""))
    }

    @Test func aReplayedFileMustExistAndIsTakenFromTheConfigurationsFolder() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([1, 2, 3]).write(to: dir.appendingPathComponent("fall.detrec"))
        let text = Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"replay\"")
            + "[sensor.replay]\npath = \"fall.detrec\"\nloop = true\n"
        let path = dir.appendingPathComponent("d.toml").path
        let c = try DaemonConfiguration.parse(text: text, path: path, environment: [:])
        #expect(c.sensor.source == .replay(ReplaySensorSettings(path: dir.appendingPathComponent("fall.detrec").path, speed: 1, loop: true)))

        let missing = try #require(Self.issue("sensor.replay.path", in: text.replacingOccurrences(of: "fall.detrec", with: "gone.detrec"), path: path))
        #expect(missing.line == 17)
        #expect(missing.message == "no such file or folder: \(dir.path)/gone.detrec")
    }

    @Test func anUnusedReplayTableIsCheckedButItsFileNeedNotExist() throws {
        let text = Self.minimal + "[sensor.replay]\npath = \"gone.detrec\"\n"
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/d.toml", environment: [:])
        #expect(c.sensor.source == .i2c(I2CSensorSettings()))
        let typo = try #require(Self.issue("sensor.replay.sped", in: text + "sped = 2\n"))
        #expect(typo.line == 18)
    }

    @Test func aStallShorterThanTwoSamplesIsRefused() throws {
        let text = Self.minimal.replacingOccurrences(of: "source = \"i2c\"", with: "source = \"i2c\"\nrate_hz = 10\nstall_seconds = 0.1")
        let issue = try #require(Self.issue("sensor.stall_seconds", in: text))
        #expect(issue.line == 14)
        #expect(issue.message == "is 0.1 s, under two sample intervals at 10 Hz; expected at least 0.2 s")
    }

    @Test func anEmptyListOfContactsIsMissingContacts() throws {
        let text = "contacts = []\n" + Self.minimal.replacingOccurrences(of: "[[contacts]]\nphone = \"+351913333333\"\nname = \"Rui\"\nchannel = \"console\"\n", with: "")
        let issue = try #require(Self.issue("contacts", in: text))
        #expect(issue.line == 1)
        #expect(issue.message.hasPrefix("is required: at least one [[contacts]] entry"))
    }

    @Test func shortCountdownsNeedTheDemoFlag() throws {
        let text = Self.minimal + "[workflow]\ncountdown_seconds = 15\n"
        let issue = try #require(Self.issue("workflow.countdown_seconds", in: text))
        #expect(issue.line == 17)
        #expect(issue.message.contains("set demo = true"))
        let c = try DaemonConfiguration.parse(text: text + "demo = true\n", path: "/tmp/d.toml", environment: [:])
        #expect(c.workflow.demo)
        #expect(c.workflow.settings.countdown == 15)
    }

    @Test func aWebhookSecretComesFromAFileWithoutItsLineBreak() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "file-secret-0123456789abcdef"
        try (secret + "\n").write(to: dir.appendingPathComponent("webhook.secret"), atomically: true, encoding: .utf8)
        let text = Self.minimal + "[channels.webhook]\nurl = \"https://example.org/hook\"\nsecret_file = \"webhook.secret\"\n"
        let c = try DaemonConfiguration.parse(text: text, path: dir.appendingPathComponent("d.toml").path, environment: [:])
        let webhook = try #require(c.channels.webhook)
        #expect(webhook.secret.bytes == Array(secret.utf8))
        #expect(webhook.secret.origin == .file(dir.appendingPathComponent("webhook.secret").path))
        #expect(webhook.url.absoluteString == "https://example.org/hook")
        #expect(webhook.timeoutSeconds == 10)
    }

    @Test func aMissingSecretFileOrVariableIsNamed() throws {
        let text = Self.minimal + "[channels.webhook]\nurl = \"https://example.org/hook\"\nsecret_file = \"/nonexistent/webhook.secret\"\n"
        let file = try #require(Self.issue("channels.webhook.secret_file", in: text))
        #expect(file.line == 18)
        #expect(file.message == "cannot open /nonexistent/webhook.secret: No such file or directory")

        let env = text.replacingOccurrences(of: "secret_file = \"/nonexistent/webhook.secret\"", with: "secret_env = \"HOOK_SECRET\"")
        let variable = try #require(Self.issue("channels.webhook.secret_env", in: env))
        #expect(variable.line == 18)
        #expect(variable.message == "the environment variable HOOK_SECRET is not set")
        let c = try DaemonConfiguration.parse(text: env, path: "/tmp/d.toml", environment: ["HOOK_SECRET": "environment-secret-42"])
        #expect(c.channels.webhook?.secret.bytes == Array("environment-secret-42".utf8))

        let none = try #require(Self.issue("channels.webhook.secret_file", in: Self.minimal + "[channels.webhook]\nurl = \"https://example.org/hook\"\n"))
        #expect(none.message.contains("secret_env"))
        let two = try #require(Self.issue("channels.webhook.secret", in: env + "secret = \"inline-secret-0123456789\"\n"))
        #expect(two.message == "give one of secret_env, secret, not several")
    }

    @Test func aSecretNeverAppearsInAMessageOrADescription() throws {
        let secret = "hunter2-very-secret-value"
        let text = Self.minimal + "[channels.webhook]\nurl = \"https://example.org/hook\"\nsecret_env = \"HOOK\"\n"
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/d.toml", environment: ["HOOK": secret])
        let webhook = try #require(c.channels.webhook)
        var dumped = ""
        dump(c, to: &dumped)
        for shown in [String(describing: c), String(reflecting: c), "\(webhook)", "\(webhook.secret)", String(reflecting: webhook.secret), dumped] {
            #expect(!shown.contains(secret))
        }
        #expect("\(webhook.secret)" == "secret from environment variable HOOK (25 bytes)")

        // A secret too short, and the same file with another issue: messages name the source only.
        let short = "short"
        let inline = Self.minimal.replacingOccurrences(of: "bus = 1", with: "bus = \"one\"")
            + "[channels.webhook]\nurl = \"https://example.org/hook\"\nsecret = \"\(short)\"\n"
        let issues = Self.issues(inline)
        #expect(issues.map(\.field) == ["sensor.i2c.bus", "channels.webhook.secret"])
        #expect(issues[1].message == "the secret from the configuration file has 5 bytes; at least 16 are needed")
        for issue in issues { #expect(!issue.description.contains(short)) }
        let longInline = inline.replacingOccurrences(of: short, with: secret)
        for issue in Self.issues(longInline) { #expect(!issue.description.contains(secret)) }
    }

    @Test func aPINHashComesFromItsFileAndIsChecked() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hash = try PINHasher.hash("2468")
        try (hash + "\n").write(to: dir.appendingPathComponent("pin.hash"), atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("d.toml").path
        let c = try DaemonConfiguration.parse(text: Self.minimal + "[pin]\nhash_file = \"pin.hash\"\n", path: path, environment: [:])
        let loaded = try #require(c.pin.hash)
        #expect(PINHasher.verify("2468", against: loaded))

        let plain = try #require(Self.issue("pin.hash", in: Self.minimal + "[pin]\nhash = \"2468\"\n"))
        #expect(plain.line == 17)
        #expect(!plain.message.contains("2468"))
        let missing = try #require(Self.issue("pin.hash_file", in: Self.minimal + "[pin]\nhash_file = \"nope.hash\"\n", path: path))
        #expect(missing.message.contains("No such file or directory"))
        // The form of a hash, but none a PIN can match: cut short in copying.
        let full = try PINHasher.hash("2468")
        let cut = String(full.dropLast(10))
        let unusable = try #require(Self.issue("pin.hash", in: Self.minimal + "[pin]\nhash = \"\(cut)\"\n"))
        #expect(unusable.message.contains("no PIN can match"))
        #expect(!unusable.message.contains(cut))
    }

    @Test func aDuressPINNeedsThePINAndMustDifferFromIt() throws {
        let hash = try PINHasher.hash("2468")
        let duress = try PINHasher.hash("1357")
        let both = try DaemonConfiguration.parse(text: Self.minimal + "[pin]\nhash = \"\(hash)\"\nduress_hash = \"\(duress)\"\n", path: "d.toml", environment: [:])
        #expect(both.pin.duressHash.map { PINHasher.verify("1357", against: $0) } == true)
        let alone = try #require(Self.issue("pin.duress_hash", in: Self.minimal + "[pin]\nduress_hash = \"\(duress)\"\n"))
        #expect(alone.message.contains("needs the PIN itself"))
        let same = try #require(Self.issue("pin.duress_hash", in: Self.minimal + "[pin]\nhash = \"\(hash)\"\nduress_hash = \"\(hash)\"\n"))
        #expect(same.message.contains("another PIN"))
        #expect(Self.issue("pin.duress_hash", in: Self.minimal + "[pin]\nhash = \"\(hash)\"\nduress_hash = \"1357\"\n")?.message.contains("crypt(5)") == true)
    }

    @Test func aModelFileIsParsedWhole() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "not a model\n".write(to: dir.appendingPathComponent("model.txt"), atomically: true, encoding: .utf8)
        let text = Self.minimal + "[detector]\nmodel = \"model.txt\"\n"
        let issue = try #require(Self.issue("detector.model", in: text, path: dir.appendingPathComponent("d.toml").path))
        #expect(issue.line == 17)
        #expect(issue.message.hasPrefix("not a learned model: \(dir.path)/model.txt:1:"))
    }

    @Test func theTrackingIntervalIsAMinuteAtLeastOutsideADemo() throws {
        let short = Self.minimal + "[workflow]\ntracking_interval_seconds = 10\n"
        let issue = try #require(Self.issue("workflow.tracking_interval_seconds", in: short))
        #expect(issue.line == 17)
        #expect(issue.message.contains("at least 60 s, or set demo = true"), "\(issue)")
        let demo = Self.minimal + "[workflow]\ntracking_interval_seconds = 10\ndemo = true\n"
        let c = try DaemonConfiguration.parse(text: demo, path: "/tmp/detectord.toml", environment: [:])
        #expect(c.workflow.settings.trackingInterval == 10)
        #expect(Self.issue("workflow.tracking_interval_seconds", in: Self.minimal + "[workflow]\ntracking_interval_seconds = 2\ndemo = true\n") != nil)
    }

    @Test func aModelFileThatTrainWritesIsAccepted() throws {
        let model = DetectordProcess.packageRoot.appendingPathComponent("Sources/FallDetect/Resources/fall-model.txt").path
        let text = Self.minimal + "[detector]\nmodel = \"\(model)\"\n"
        #expect(Self.issues(text).isEmpty, "\(Self.issues(text))")
        let configuration = try DaemonConfiguration.parse(text: text, path: "/tmp/detectord.toml", environment: [:])
        #expect(configuration.detector.modelPath == model)
    }

    @Test func everyIssueOfAFileIsReportedInTheOrderOfTheFile() throws {
        let text = """
            [person]
            name = "A"
            phone = "912345678"
            country = "Portugal"

            [[contacts]]
            name = "Rui"
            phone = "+351913333333"
            channel = "webhook"

            [sensor]
            source = "i2c"
            rate_hz = "fast"
            axis_mapping = "x=+x,y=+x,z=+z"
            [sensor.i2c]
            chip = "mpu9999"

            [channels.webhook]
            url = "ftp://example.org"
            secret_env = "NOT_SET"

            [api]
            listen = "localhost"
            [log]
            level = "verbose"
            """
        let issues = Self.issues(text)
        #expect(issues.map(\.field) == [
            "person.name", "person.phone", "person.country", "sensor.rate_hz", "sensor.axis_mapping", "sensor.i2c.chip",
            "channels.webhook.url", "channels.webhook.secret_env", "api.listen", "log.level",
        ])
        #expect(issues.map(\.line) == [2, 3, 4, 13, 14, 16, 19, 20, 23, 25])
        #expect(issues.allSatisfy { $0.path == "/tmp/detectord.toml" && $0.column != nil })
    }

    @Test func anUnreadableFileIsOneIssue() {
        #expect(throws: ConfigurationErrors([ConfigurationIssue(path: "/nonexistent/d.toml", message: "cannot open /nonexistent/d.toml: No such file or directory")])) {
            try DaemonConfiguration.load(path: "/nonexistent/d.toml", environment: [:])
        }
    }

    @Test func listenAddressesTakeIPv6InBrackets() {
        #expect(APISettings.split("[::1]:8180").map { [$0.0, String($0.1)] } == ["::1", "8180"])
        #expect(APISettings.split("0.0.0.0:80").map { [$0.0, String($0.1)] } == ["0.0.0.0", "80"])
        #expect(APISettings.split("::1:8180") == nil)
        #expect(APISettings.split("127.0.0.1:0") == nil)
        #expect(APISettings.split("127.0.0.1") == nil)
        #expect(APISettings(host: "::1", port: 8180).address == "[::1]:8180")
    }

    @Test func withoutPersonAndContactsThePageSetsThemUp() throws {
        let text = "[sensor]\nsource = \"i2c\"\n\n[sensor.i2c]\nbus = 1\n"
        let c = try DaemonConfiguration.parse(text: text, path: "/tmp/detectord.toml", environment: [:])
        #expect(c.person == nil && c.contacts == nil)
        #expect(!c.detector.fromFile)
        #expect(Self.issues("contacts = []\n" + text).map(\.field) == ["contacts"])
        let fixed = try DaemonConfiguration.parse(text: text + "[detector]\nsensitivity = \"high\"\n", path: "/tmp/detectord.toml", environment: [:])
        #expect(fixed.detector.fromFile, "the file's sensitivity is not the page's to change")
    }

    @Test func httpsNeedsTheCertificateAndTheKeyTogether() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: dir.appendingPathComponent("cert.pem"))
        let path = dir.appendingPathComponent("detectord.toml").path
        let alone = Self.minimal + "[api]\nlisten = \"0.0.0.0:8443\"\ncertificate = \"cert.pem\"\n"
        #expect(Self.issue("api.key", in: alone, path: path)?.message == "give certificate and key together (PEM files), or neither")
        let missing = Self.minimal + "[api]\ncertificate = \"cert.pem\"\nkey = \"key.pem\"\n"
        #expect(Self.issue("api.key", in: missing, path: path) != nil)
        try Data("key".utf8).write(to: dir.appendingPathComponent("key.pem"))
        let both = try DaemonConfiguration.parse(text: missing, path: path, environment: [:])
        #expect(both.api.certificate == dir.appendingPathComponent("cert.pem").path && both.api.key == dir.appendingPathComponent("key.pem").path)
        #expect(both.api.isLoopbackOnly)
    }
}
