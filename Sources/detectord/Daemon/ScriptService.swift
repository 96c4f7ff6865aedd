import ServiceLifecycle

/// Runs one piece of scripted work (the simulated keychain's presses) until it ends or the
/// daemon stops.
struct ScriptService: Service {
    let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    func run() async throws {
        await cancelWhenGracefulShutdown { await body() }
    }
}
