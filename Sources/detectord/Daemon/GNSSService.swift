import DeviceLink
import FallDetect
import ServiceLifecycle

/// Feeds fixes to the crash detector (speed gate) and to the workflow (the position in messages
/// and tracking), and reports the receiver's state as it changes: gpsd's client reconnects by
/// itself when gpsd is restarted or killed.
struct GNSSService: Service {
    let choice: GNSSChoice
    let detector: DetectorLoop
    let workflow: WorkflowService
    let status: DaemonStatus
    let hub: EventHub

    func run() async throws {
        let source: any GNSSSource
        var client: GPSDClient?
        switch choice {
        case .none:
            try? await gracefulShutdown()
            return
        case .recording(let recorded):
            source = recorded
            status.setGNSSState("replaying")
        case .gpsd(let host, let port):
            let gpsd = GPSDClient(configuration: GPSDClient.Configuration(host: host, port: String(port)))
            gpsd.start()
            client = gpsd
            source = gpsd
        }
        status.attach(gnss: source)
        let watcher = Task { [client] in
            guard let client else { return }
            var gate = GNSSEventGate()
            while !Task.isCancelled {
                let current = client.state
                let state = current.description
                // The retry countdown and the silence's length change every poll; report a change of kind only.
                status.setGNSSState(state)
                if gate.shouldPublish(headline: current.headline, reports: client.reportCount) {
                    hub.publish(DaemonEvent("gnss", at: WorkflowService.utcNow(), severity: state.hasPrefix("connected") ? .info : .warning,
                                            [("state", .string(state))]))
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        defer {
            watcher.cancel()
            client?.stop()
        }
        var lastToWorkflow: Int64?
        // A recording's fixes carry the time they were made, not now.
        var clock: GNSSClockCheck? = client != nil ? GNSSClockCheck() : nil
        for await fix in source.fixes.cancelOnGracefulShutdown() {
            detector.push(fix: fix)
            if fix.mode != .none, let utc = fix.utcNanoseconds, let news = clock?.check(systemUTC: WorkflowService.utcNow(), fixUTC: utc) {
                publish(news)
            }
            // The workflow needs a position about once a second, not every report.
            if fix.isTrusted, lastToWorkflow.map({ fix.timestampNanoseconds &- $0 >= 900_000_000 }) ?? true {
                lastToWorkflow = fix.timestampNanoseconds
                workflow.submit(.position(fix))
            }
        }
    }

    private func publish(_ news: GNSSClockCheck.News) {
        let now = WorkflowService.utcNow()
        switch news {
        case .off(let seconds):
            status.setClockOffset(seconds)
            let way = seconds > 0 ? "ahead of" : "behind"
            hub.publish(DaemonEvent("clock", at: now, severity: .warning, [
                ("gnss_offset_s", .number(DaemonStatus.tenths(seconds))),
                ("message", .string("the system clock is \(Int(abs(seconds).rounded())) s \(way) the receiver's UTC: messages are stamped with the system clock; let chrony set it from gpsd (docs/daemon.md)")),
            ]))
        case .agrees:
            status.setClockOffset(nil)
            hub.publish(DaemonEvent("clock", at: now, [("message", .string("the system clock agrees with the receiver's UTC"))]))
        }
    }
}
