import DeviceLink
import FallDetect
import Testing
@testable import detectord

@Suite struct KeychainSettingsTests {
    static func parse(_ keychain: String) throws -> DaemonConfiguration {
        try DaemonConfiguration.parse(text: DaemonConfigurationTests.minimal + keychain, path: "/tmp/d.toml", environment: [:])
    }

    static func messages(_ keychain: String) -> [String] {
        DaemonConfigurationTests.issues(DaemonConfigurationTests.minimal + keychain).map(\.description)
    }

    @Test func withoutATableThereIsNoKeychain() throws {
        #expect(try Self.parse("").keychain.kind == .none)
    }

    @Test func aTableAloneIsAnITagWithSafeDefaults() throws {
        let settings = try Self.parse("[keychain]\n").keychain
        #expect(settings.kind == .itag)
        #expect(settings.sosPattern == .single)
        #expect(settings.imFinePattern == nil, "a button that can cancel is off by default")
        #expect(settings.profile.buttonService == BluetoothUUID(0xFFE0))
        #expect(settings.profile.linkLossAlert == false)
        #expect(settings.linkLostMessage == nil)
        #expect(settings.timing == PressTiming())
    }

    @Test func everyKeyIsRead() throws {
        let settings = try Self.parse("""
            [keychain]
            kind = "simulated"
            address = "ff:ff:10:20:30:40"
            address_type = "random"
            button_service = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
            button_characteristic = "6E400003-B5A3-F393-E0A9-E50E24DCCA9E"
            alarm_level = "mild"
            link_loss_alert = true
            press_debounce_ms = 100
            press_window_ms = 800
            sos_pattern = "double"
            im_fine_pattern = "triple"
            link_lost_warning_minutes = 5
            link_lost_message_minutes = 30
            request_timeout_seconds = 3
            reconnect_max_seconds = 120

            [keychain.simulated]
            battery = 12
            presses = [{ at_seconds = 2, pattern = "triple" }]
            """).keychain
        #expect(settings.kind == .simulated)
        #expect(settings.address == "FF:FF:10:20:30:40")
        #expect(settings.addressType == .random)
        #expect(settings.profile.buttonCharacteristic == FakeGATTDatabase.vendorButtonCharacteristic)
        #expect(settings.profile.alarmLevel == 1)
        #expect(settings.profile.linkLossAlert)
        #expect(settings.profile.requestTimeout == 3)
        #expect(settings.timing == PressTiming(debounce: 0.1, window: 0.8))
        #expect(settings.sosPattern == .double && settings.imFinePattern == .triple)
        #expect(settings.linkLostWarning == 300 && settings.linkLostMessage == 1800)
        #expect(settings.reconnect.maximumDelay == 120)
        #expect(settings.simulated.battery == 12)
        #expect(settings.simulated.presses == [.init(atSeconds: 2, pattern: .triple)])
    }

    @Test func badValuesAreNamedWithTheirField() {
        let cases: [(String, String)] = [
            ("address = \"FF:FF:10\"", "keychain.address"),
            ("kind = \"flic\"", "keychain.kind"),
            ("button_service = \"xyz\"", "keychain.button_service"),
            ("sos_pattern = \"long\"", "keychain.sos_pattern"),
            ("im_fine_pattern = \"single\"", "keychain.im_fine_pattern"),
            ("press_window_ms = 100", "keychain.press_window_ms"),
            ("press_debounce_ms = 900\npress_window_ms = 800", "keychain.press_debounce_ms"),
            ("alarm_level = \"loud\"", "keychain.alarm_level"),
            ("adress = \"FF:FF:10:20:30:40\"", "keychain.adress"),
        ]
        for (line, field) in cases {
            let found = Self.messages("[keychain]\n\(line)\n")
            #expect(found.contains { $0.contains(field) }, "\(line): \(found)")
        }
        #expect(Self.messages("[keychain]\nim_fine_pattern = \"single\"\n").contains { $0.contains("also the SOS pattern") })
        #expect(!Self.messages("[keychain]\n[keychain.simulated]\npresses = [{ at_seconds = -1 }]\n").isEmpty)
    }
}
