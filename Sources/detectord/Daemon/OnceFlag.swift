import Synchronization

/// A flag that is raised once and read from any thread (the replay has ended).
final class OnceFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
