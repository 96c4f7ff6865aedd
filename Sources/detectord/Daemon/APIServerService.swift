import ServiceLifecycle

/// Runs the HTTP server, and runs it again when it cannot listen (another program holds the
/// port, an address not configured yet at boot) or stops with an error. Without it the page and
/// `ctl` are out of reach, but detection, the countdown, the keychain and the alerts are not: a
/// daemon that exited over it would be restarted by systemd every few seconds and protect no one.
struct APIServerService: Service {
    /// The Hummingbird application: each run builds and binds a new server.
    let server: any Service
    /// Said at each failure, with the wait before the next try (seconds).
    let failed: @Sendable (_ error: any Error, _ retryInSeconds: Double) -> Void
    let firstRetrySeconds = 1.0
    let lastRetrySeconds = 30.0

    func run() async throws {
        var wait = firstRetrySeconds
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await server.run()
                return
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                // A server that served a while and then failed starts the backoff anew.
                if ContinuousClock.now - started > .seconds(lastRetrySeconds) { wait = firstRetrySeconds }
                failed(error, wait)
                let seconds = wait
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(seconds)) }
                wait = min(lastRetrySeconds, wait * 2)
            }
        }
    }
}
