import Synchronization

/// A wake-up call that is remembered until taken.
final class Wakeup: Sendable {
    private let flag = Atomic<Bool>(false)
    func raise() { flag.store(true, ordering: .releasing) }
    func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}
