import FallDetect
import ServiceLifecycle

/// Ends the daemon (gracefully, like SIGTERM) once a replay has run out and the workflow has
/// nothing left to do: no countdown, no emergency being sent or tracked, no message waiting.
/// This is what lets `make run` finish by itself; a device never runs with it.
struct IdleExitService: Service {
    let store: WorkflowStore
    let sourceEnded: OnceFlag
    let hub: EventHub

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .milliseconds(500))
            guard sourceEnded.isRaised else { continue }
            guard let machine = try? store.workflow(), let waiting = try? store.waiting() else { continue }
            let settled = machine.state.isSettled
            if settled, !machine.isTracking, waiting.isEmpty {
                hub.publish(DaemonEvent("idle", at: WorkflowService.utcNow(), [("message", .string("the sensor source has ended and nothing is left to do"))]))
                return
            }
        }
    }
}
