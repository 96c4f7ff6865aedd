/// How the daemon keeps looking for its keychain after a drop: capped exponential backoff. iTags
/// re-advertise after a link loss, so a direct connect to the known address works without a scan
/// (hardware.md §4.5); the cap keeps a tag that was switched off from costing radio time.
public struct KeychainReconnect: Sendable, Equatable {
    public var initialDelay: Double = 1
    public var maximumDelay: Double = 60
    /// Each connect attempt's limit (the kernel's own is about 40 s).
    public var connectTimeout: Double = 15

    public init(initialDelay: Double = 1, maximumDelay: Double = 60, connectTimeout: Double = 15) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.connectTimeout = connectTimeout
    }

    /// The wait before attempt number `failures + 1`.
    public func delay(afterFailures failures: Int) -> Double {
        min(maximumDelay, initialDelay * Double(1 << min(failures, 20)))
    }
}
