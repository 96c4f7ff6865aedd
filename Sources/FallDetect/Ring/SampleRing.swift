import CFusion
import Synchronization

/// The lock-free single-producer, single-consumer ring of ``IMUSample`` between the sensor thread
/// and the detector (the C ring `cfusion_ring`, in one cache-line-aligned allocation).
///
/// The ring itself is shared by reference and safe to query from any thread (``capacity``,
/// ``droppedCount``, ``count``). Writing and reading go through the two non-copyable handles,
/// ``Producer`` and ``Consumer``, each of which can be made once: the single-producer,
/// single-consumer contract is then enforced by ownership, not by convention.
///
/// ```swift
/// let ring = SampleRing(capacity: 1024)
/// let producer = ring.makeProducer()
/// let consumer = ring.makeConsumer()
/// let sensor = Thread { [producer] in producer.push(sample) }
/// ```
///
/// The producer never waits: when the ring is full, ``Producer/push(_:)`` and
/// ``Producer/write(count:_:)`` drop the samples that do not fit and count them.
public final class SampleRing: @unchecked Sendable {
    // @unchecked: the only mutable state is the C ring, whose fields are either atomics or private
    // to the one producer or the one consumer; the non-copyable handles guarantee there is one of each.

    /// The C ring. Opaque to Swift, which cannot import its C11 `_Atomic` fields; only the C
    /// functions touch them.
    let cRing: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let handedOut = Atomic<UInt8>(0)  // bit 0: producer made, bit 1: consumer made

    /// The number of samples the ring holds when full.
    public let capacity: Int

    /// Creates an empty ring of `capacity` samples; `capacity` must be a power of two no larger
    /// than 2^31 (the free-running indices are 32-bit).
    public convenience init(capacity: Int) {
        self.init(capacity: capacity, initialIndex: 0)
    }

    /// Starts both indices at `initialIndex`, so tests can cross the 32-bit index wrap quickly.
    init(capacity: Int, initialIndex: UInt32) {
        precondition(
            capacity > 0 && capacity <= Int(CFUSION_RING_MAX_CAPACITY) && capacity.nonzeroBitCount == 1,
            "SampleRing capacity must be a power of two in 1...2^31, not \(capacity)"
        )
        let byteCount = cfusion_ring_memsize(UInt32(capacity))
        memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Int(CFUSION_RING_ALIGNMENT))
        guard let cRing = cfusion_ring_init_at(memory, UInt32(capacity), initialIndex) else {
            preconditionFailure("cfusion_ring_init_at refused a checked capacity and aligned memory")
        }
        self.cRing = cRing
        self.capacity = capacity
        // Swift reads and writes the slots as IMUSample (the layout of cfusion_sample).
        UnsafeMutableRawPointer(cfusion_ring_slots(cRing)).bindMemory(to: IMUSample.self, capacity: capacity)
    }

    deinit {
        memory.deallocate()
    }

    /// Samples the producer has dropped so far because the ring was full. Any thread.
    public var droppedCount: UInt64 {
        cfusion_ring_dropped(cRing)
    }

    /// Samples in the ring at some recent moment: a snapshot for monitoring. Any thread.
    public var count: Int {
        Int(cfusion_ring_count(cRing))
    }

    /// The ring's only producer handle. Traps if called twice.
    public func makeProducer() -> Producer {
        claim(bit: 1, role: "producer")
        return Producer(ring: self)
    }

    /// The ring's only consumer handle. Traps if called twice.
    public func makeConsumer() -> Consumer {
        claim(bit: 2, role: "consumer")
        return Consumer(ring: self)
    }

    private func claim(bit: UInt8, role: StaticString) {
        let before = handedOut.bitwiseOr(bit, ordering: .relaxed).oldValue
        precondition(before & bit == 0, "SampleRing: the \(role) handle was already made")
    }

    /// The slot array as Swift sees it.
    func samples(at span: UnsafeMutablePointer<cfusion_sample>) -> UnsafeMutablePointer<IMUSample> {
        UnsafeMutableRawPointer(span).assumingMemoryBound(to: IMUSample.self)
    }
}
