import ServiceLifecycle

/// A `Service` around work that runs on threads of its own (the sensor pump, the detector): it
/// starts them, waits for graceful shutdown, then stops them and waits until they have ended.
struct ThreadService: Service {
    let name: String
    let start: @Sendable () -> Void
    let stop: @Sendable () -> Void

    func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }
}
