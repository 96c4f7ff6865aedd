import ServiceLifecycle

/// Stands in the service group for a part that is not configured (no keychain): it only
/// waits for shutdown, so the group's shape is the same on every device.
struct IdleService: Service {
    func run() async throws {
        try? await gracefulShutdown()
    }
}
