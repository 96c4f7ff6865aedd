import FallDetect

/// Timings and choices for `GSMModemChannel`, in seconds.
public struct GSMModemSettings: Sendable, Equatable {
    /// For simple commands (AT, AT+CSQ…); a healthy modem answers in milliseconds.
    public var commandTimeout: Double = 5
    /// For the "> " prompt and for +CMGS after Ctrl-Z: 27.005 allows the network a long time.
    public var submitTimeout: Double = 60
    /// How long one attempt waits for the status reports of what it just sent, before handing the
    /// modem to the next message and asking to be called again. Short, because messages to the
    /// other contacts queue behind it; reports that come later are picked up by the next attempt.
    public var reportWait: Double = 5
    /// When reports are still outstanding, the next attempt comes this much later.
    public var reportPollInterval: Double = 20
    /// A part with no report this long after it was accepted is sent again: the report may be
    /// lost, and a duplicate beats a missed alert.
    public var resendAfter: Double = 600
    /// The validity period each SMS asks for (AT+CSMP's vp 167: 24 h). A part sent again once, or
    /// held by a service centre still trying, is sent again only after this without a report: by
    /// then the centre has given up on it, and a modem reset may have lost its report (CNMI).
    public var validity: Double = 86_400
    /// Modems or networks without status reports: count "+CMGS accepted" as delivered instead.
    public var requireDeliveryReport = true
    /// Backoff for transient failures (no signal, errors, timeouts).
    public var retry = RetryPolicy()

    public init() {}
}
