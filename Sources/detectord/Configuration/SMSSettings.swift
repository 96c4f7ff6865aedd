/// `[channels.sms]`: a GSM modem on a serial port (see `GSMModemChannel`).
struct SMSSettings: Sendable, Equatable {
    /// The modem's tty, such as /dev/ttyUSB2. Not checked for existence: a modem plugged in
    /// late still works, the channel opens it on its first message.
    var device: String
    var baud: Int

    static let keys = ["device", "baud"]
    /// The rates `SerialPort` can set.
    static let baudRates = [9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600]

    init(device: String, baud: Int = 115_200) {
        self.device = device
        self.baud = baud
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var device = table.string("device", required: "the modem's serial device such as /dev/ttyUSB2")
        if let path = device, !path.hasPrefix("/") {
            table.context.report(table.field("device"), "\"\(path)\" is not a device path such as /dev/ttyUSB2")
            device = nil
        }
        var baud: Int? = 115_200
        if table.contains("baud") {
            baud = table.integer("baud", in: 9600...921_600)
            if let rate = baud, !Self.baudRates.contains(rate) {
                table.context.report(table.field("baud"), "\(rate) is not a serial rate; expected one of \(Self.baudRates.map(String.init).joined(separator: ", "))")
                baud = nil
            }
        }
        guard let device, let baud else { return nil }
        self.init(device: device, baud: baud)
    }
}
