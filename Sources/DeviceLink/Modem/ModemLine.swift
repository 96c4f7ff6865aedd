/// One line from the modem, classified.
public enum ModemLine: Equatable, Sendable {
    case ok
    case error
    /// +CMS ERROR: the SMS layer's error; `code` nil when the modem sent text (AT+CMEE=2).
    case cmsError(code: Int?, text: String)
    /// +CME ERROR: the equipment's error (SIM, memory…).
    case cmeError(code: Int?, text: String)
    /// +CMGS: <mr>, the message reference the network gave a submitted SMS.
    case messageReference(Int)
    /// +CDS: <fo>,<mr>,[<ra>],[<tora>],<scts>,<dt>,<st>, a status report in text mode.
    case statusReport(reference: Int, status: Int)
    /// +CSQ: <rssi>,<ber>; 99 means unknown (no signal).
    case signal(rssi: Int, ber: Int)
    /// +CREG: [<n>,]<stat>.
    case registration(Int)
    /// Anything else: echoes, unsolicited lines we do not use, noise.
    case other(String)

    public init(_ line: String) {
        let text = line.trimmingSpaces
        if text == "OK" {
            self = .ok
        } else if text == "ERROR" {
            self = .error
        } else if let rest = text.after("+CMS ERROR:") {
            self = .cmsError(code: Int(rest), text: rest)
        } else if let rest = text.after("+CME ERROR:") {
            self = .cmeError(code: Int(rest), text: rest)
        } else if let rest = text.after("+CMGS:"), let reference = Int(rest.split(separator: ",").first.map(String.init)?.trimmingSpaces ?? "") {
            self = .messageReference(reference)
        } else if let rest = text.after("+CDS:"), let report = Self.statusReport(rest) {
            self = .statusReport(reference: report.0, status: report.1)
        } else if let rest = text.after("+CSQ:"), let numbers = Self.integers(rest), numbers.count == 2 {
            self = .signal(rssi: numbers[0], ber: numbers[1])
        } else if let rest = text.after("+CREG:"), let numbers = Self.integers(rest.split(separator: ",").prefix(2).joined(separator: ",")), !numbers.isEmpty {
            // "+CREG: 0,1" answers AT+CREG?; "+CREG: 1" is the unsolicited form.
            self = .registration(numbers.count == 1 ? numbers[0] : numbers[1])
        } else {
            self = .other(text)
        }
    }

    /// The message reference (second field) and status (last field); quoted fields may hold commas.
    private static func statusReport(_ text: String) -> (Int, Int)? {
        var fields: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                fields.append(current.trimmingSpaces)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current.trimmingSpaces)
        guard fields.count >= 3, let reference = Int(fields[1]), let status = Int(fields[fields.count - 1]) else { return nil }
        return (reference, status)
    }

    private static func integers(_ text: String) -> [Int]? {
        let values = text.split(separator: ",").map { Int(String($0).trimmingSpaces) }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        return values.compactMap { $0 }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    fileprivate func after(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)).trimmingSpaces : nil
    }
}
