import Synchronization

/// The traffic counts of a simulated bus, readable from any thread: a benchmark keeps a
/// reference while the bus itself lives on the sensor thread.
public final class SimulatedBusCounters: Sendable {
    private let state = Mutex(SimulatedI2CBus.Statistics())

    public init() {}

    public var statistics: SimulatedI2CBus.Statistics { state.withLock { $0 } }

    func update(_ change: (inout SimulatedI2CBus.Statistics) -> Void) { state.withLock { change(&$0) } }

    public func reset() { state.withLock { $0 = SimulatedI2CBus.Statistics() } }
}
