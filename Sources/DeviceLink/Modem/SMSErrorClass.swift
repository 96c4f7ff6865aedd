/// Whether an SMS error is worth retrying. The rule: errors about this message or this recipient
/// (an unassigned or barred number, a rejected or malformed message) are permanent, because the
/// same SMS will fail the same way; errors about the network, the modem or the SIM are transient,
/// because someone or something can fix them and an emergency must not be dropped for them.
/// Only the answer to the message itself (AT+CMGS) can be permanent: a set-up command's error is
/// the modem's state, not the message's.
enum SMSErrorClass {
    /// +CMS ERROR codes (3GPP TS 27.005 §3.2.5; 1–127 are RP causes from TS 24.011, 128–255
    /// TP-FCS values from TS 23.040) that are permanent. Every other code retries, including
    /// 27 destination out of order, 38 network out of order, 41 temporary failure, 42 congestion,
    /// 47 resources unavailable, 192 SC busy, 194 SC system failure, 300 ME failure, 310–316 SIM
    /// missing/PIN/busy, 322 memory full, 330 SMSC address unknown, 331 no network service,
    /// 332 network timeout, 500 unknown and the 512+ manufacturer codes, and 302 operation not
    /// allowed, which SIM800-class modems answer while their SMS service is still starting (after
    /// a boot or a re-enumeration) or to commands that come too fast, and 303–305 (operation not
    /// supported, invalid PDU or text mode parameter), which a modem that restarted between two
    /// parts of a message answers from its default mode: they are about the modem, not the SMS.
    static let permanentCMS: [Int: String] = [
        1: "unassigned (unallocated) number",
        8: "operator determined barring",
        10: "call barred",
        21: "short message transfer rejected",
        29: "facility rejected",
        30: "unknown subscriber",
        50: "requested facility not subscribed",
        69: "requested facility not implemented",
        81: "invalid short message transfer reference value",
        95: "invalid message, unspecified",
        96: "invalid mandatory information",
        97: "message type non-existent or not implemented",
        98: "message not compatible with short message protocol state",
        99: "information element non-existent or not implemented",
        111: "protocol error, unspecified",
        127: "interworking, unspecified",
        128: "telematic interworking not supported",
        129: "short message type 0 not supported",
        143: "unspecified TP-PID error",
        144: "data coding scheme (alphabet) not supported",
        145: "message class not supported",
        159: "unspecified TP-DCS error",
        176: "TPDU not supported",
        193: "no SC subscription",
        195: "invalid SME address",
        196: "destination SME barred",
    ]

    static func isPermanent(cms code: Int) -> Bool { permanentCMS[code] != nil }

    /// TP-Status of a status report (TS 23.040 §9.2.3.15).
    enum ReportStatus: Equatable {
        /// 0x00–0x1F: the transaction completed (received, forwarded, replaced).
        case delivered
        /// 0x20–0x3F: the service centre is still trying.
        case stillTrying
        /// 0x40–0x5F: the service centre gave up for good (unknown or barred recipient…).
        case permanentError
        /// 0x60–0x7F and reserved values: it gave up for now; send again later.
        case temporaryError
    }

    static func report(_ status: Int) -> ReportStatus {
        switch status {
        case 0x00...0x1F: .delivered
        case 0x20...0x3F: .stillTrying
        case 0x40...0x5F: .permanentError
        default: .temporaryError
        }
    }
}
