import CFusion
import Foundation
import Synchronization
import Testing

@testable import FallDetect

#if canImport(Glibc)
import Glibc
#endif

// Serialized: the two-thread tests each keep both cores busy; running them side by side only slows both.
@Suite(.serialized) struct SampleRingTests {
    // MARK: - Layout and set-up

    @Test func memsizeAcceptsOnlyPowersOfTwo() {
        #expect(cfusion_ring_memsize(0) == 0)
        #expect(cfusion_ring_memsize(3) == 0)
        #expect(cfusion_ring_memsize(1000) == 0)
        #expect(cfusion_ring_memsize(0x8000_0001) == 0)
        #expect(cfusion_ring_memsize(1) == 5 * 64 + 32)
        #expect(cfusion_ring_memsize(1024) == 5 * 64 + 1024 * 32)
        #expect(cfusion_ring_memsize(CFUSION_RING_MAX_CAPACITY) == 5 * 64 + (1 << 36))
    }

    @Test func initRefusesMisalignedMemory() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 64)
        defer { memory.deallocate() }
        #expect(cfusion_ring_init(memory + 8, 16) == nil)
        #expect(cfusion_ring_init(memory, 16) != nil)
        #expect(cfusion_ring_init(memory, 12) == nil)
    }

    @Test func badCapacityTraps() async {
        await #expect(processExitsWith: .failure) { _ = SampleRing(capacity: 48) }
    }

    @Test func eachHandleIsMadeOnce() async {
        await #expect(processExitsWith: .failure) {
            let ring = SampleRing(capacity: 4)
            _ = ring.makeProducer()
            _ = ring.makeProducer()
        }
    }

    // MARK: - Single items and dropping

    @Test func singleItemsComeOutInOrder() {
        let ring = SampleRing(capacity: 4)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        #expect(consumer.pop() == nil)
        for round in 0..<10 {
            for i in 0..<3 {
                let stored = producer.push(sample(Int64(round * 3 + i)))
                #expect(stored)
            }
            #expect(ring.count == 3 && consumer.availableCount == 3 && producer.freeCount == 1)
            for i in 0..<3 { #expect(consumer.pop()?.timestampNanoseconds == Int64(round * 3 + i)) }
            #expect(consumer.pop() == nil)
        }
        let full = sample(0, acceleration: SIMD3(0.5, -1, 2), angularRate: SIMD3(100, -200, 3))
        producer.push(full)
        #expect(consumer.pop() == full)
        #expect(ring.droppedCount == 0)
    }

    @Test func aFullRingDropsAndCounts() {
        let ring = SampleRing(capacity: 8)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        for i in 0..<8 {
            let stored = producer.push(sample(Int64(i)))
            #expect(stored)
        }
        #expect(producer.freeCount == 0)
        for i in 8..<11 {
            let stored = producer.push(sample(Int64(i)))
            #expect(!stored)
        }
        #expect(ring.droppedCount == 3)

        // The non-dropping calls refuse without counting.
        let retried = producer.tryPush(sample(99))
        #expect(!retried && ring.droppedCount == 3)
        var called = false
        #expect(producer.tryWrite(maxCount: 4) { _ in called = true; return 0 } == 0)
        #expect(!called && ring.droppedCount == 3)

        // The dropping batch write counts the whole batch when there is no room.
        #expect(producer.write(count: 5) { _, _ in Issue.record("no room, no span") } == 0)
        #expect(ring.droppedCount == 8)

        // Two freed slots: the bulk copy stores two of four and drops two.
        #expect(consumer.pop()?.timestampNanoseconds == 0)
        #expect(consumer.pop()?.timestampNanoseconds == 1)
        let four = (100..<104).map { sample(Int64($0)) }
        #expect(four.withUnsafeBufferPointer { producer.push(contentsOf: $0) } == 2)
        #expect(ring.droppedCount == 10)
        #expect(consumer.droppedCount == 10)

        // What was stored is intact and in order: 2...7, then 100, 101.
        var out = [IMUSample](repeating: sample(-1), count: 16)
        let moved = out.withUnsafeMutableBufferPointer { consumer.pop(into: $0) }
        #expect(moved == 8)
        #expect(out[0..<8].map(\.timestampNanoseconds) == [2, 3, 4, 5, 6, 7, 100, 101])
        #expect(producer.freeCount == 8)
    }

    @Test func writeStoresWhatFitsAcrossTheEndAndDropsTheRest() {
        let ring = SampleRing(capacity: 8, initialIndex: 6)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        var spans: [Range<Int>] = []
        let stored = producer.write(count: 11) { span, first in
            spans.append(first..<(first + span.count))
            for i in span.indices { span[i] = sample(Int64(first + i)) }
        }
        #expect(stored == 8)
        #expect(spans == [0..<2, 2..<8])
        #expect(ring.droppedCount == 3)
        #expect(drain(consumer) == Array(0..<8))
    }

    // MARK: - Wrap-around at every capacity edge

    /// For every capacity up to 64, every starting slot and every fill level: the producer's and
    /// the consumer's spans split exactly at the end of the slot array. The second base index makes
    /// the free-running 32-bit indices cross their wrap at 2^32 as well.
    @Test(arguments: [0, UInt32.max - 100])
    func batchesSplitAtTheEndOfTheSlotArray(indexBase: UInt32) {
        for capacity in (0...6).map({ 1 << $0 }) {
            for start in 0..<capacity {
                for fill in 0...capacity {
                    let ring = SampleRing(capacity: capacity, initialIndex: indexBase &+ UInt32(start))
                    let producer = ring.makeProducer()
                    let consumer = ring.makeConsumer()
                    // Slots from the starting one to the end of the array.
                    let room = capacity - Int((indexBase &+ UInt32(start)) & UInt32(capacity - 1))
                    let firstPart = min(fill, room)

                    var producerSpans: [Int] = []
                    let stored = producer.write(count: fill) { span, first in
                        producerSpans.append(span.count)
                        for i in span.indices { span[i] = sample(Int64(first + i)) }
                    }
                    #expect(stored == fill)
                    #expect(producerSpans == [firstPart, fill - firstPart].filter { $0 > 0 })
                    #expect(producer.push(sample(-1)) == (fill < capacity))
                    #expect(ring.droppedCount == (fill == capacity ? 1 : 0))

                    var consumerSpans: [Int] = []
                    var seen: [Int64] = []
                    while consumer.read(maxCount: capacity, { span in
                        consumerSpans.append(span.count)
                        seen += span.map(\.timestampNanoseconds)
                    }) > 0 {}
                    let expected = (0..<Int64(fill)).map { $0 } + (fill < capacity ? [-1] : [])
                    #expect(seen == expected, "capacity \(capacity) start \(start) fill \(fill)")
                    let total = expected.count
                    let readFirst = min(total, room)
                    #expect(consumerSpans == [readFirst, total - readFirst].filter { $0 > 0 })
                    #expect(ring.count == 0)
                }
            }
        }
    }

    /// Steady fill/drain rounds of every size through one ring, so the cached indices are
    /// exercised as the batches walk across the end of the slot array at every offset; the bulk
    /// copies and the single-item calls take turns with the zero-copy spans.
    @Test(arguments: [1, 2, 4, 8, 16, 32, 64, 1024])
    func repeatedRoundsCrossTheEndAtEveryOffset(capacity: Int) {
        let ring = SampleRing(capacity: capacity, initialIndex: UInt32.max - UInt32(capacity) * 3)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        var next: Int64 = 0
        var expected: Int64 = 0
        let sizes = capacity <= 64 ? Array(1...capacity) : [1, 3, 63, 64, 65, 511, 1000, 1023, 1024]
        for (round, size) in sizes.enumerated() {
            for repetition in 0...(capacity / size + 1) {
                // Producer: alternate zero-copy spans, bulk copy and single pushes.
                let batch = (0..<size).map { sample(next + Int64($0)) }
                switch (round + repetition) % 3 {
                case 0:
                    #expect(producer.write(count: size) { span, first in
                        for i in span.indices { span[i] = batch[first + i] }
                    } == size)
                case 1:
                    #expect(batch.withUnsafeBufferPointer { producer.push(contentsOf: $0) } == size)
                default:
                    for s in batch {
                        let stored = producer.push(s)
                        #expect(stored)
                    }
                }
                next += Int64(size)
                // Consumer: alternate spans, bulk copy and single pops.
                var got: [Int64] = []
                switch (round + repetition) % 3 {
                case 0:
                    var buffer = [IMUSample](repeating: sample(-1), count: size)
                    let moved = buffer.withUnsafeMutableBufferPointer { consumer.pop(into: $0) }
                    got = buffer[0..<moved].map(\.timestampNanoseconds)
                case 1:
                    while let s = consumer.pop() { got.append(s.timestampNanoseconds) }
                default:
                    got = drain(consumer).map(Int64.init)
                }
                #expect(got == Array(expected..<(expected + Int64(size))), "capacity \(capacity) size \(size)")
                expected += Int64(size)
            }
        }
        #expect(ring.droppedCount == 0)
        #expect(consumer.pop() == nil)
    }

    // MARK: - Two threads

    /// Two real threads move sequence-numbered samples in batches of random sizes; the consumer
    /// checks that it sees every number exactly once and in order. The producer must not drop
    /// here, so it waits when the ring is full (the non-dropping `tryWrite`). 10^8 samples by
    /// default; SAMPLE_RING_TEST_ITEMS scales it (ThreadSanitizer runs use fewer).
    @Test func twoThreadsMoveEverySampleInOrder() async {
        let total = itemCount(default: 100_000_000)
        let ring = SampleRing(capacity: 1024)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()

        let producing = startThread { [producer] in
            var rng = SplitMix64(seed: 0x5EED)
            let pattern = sample(0)
            var next: Int64 = 0
            var spins = 0
            while next < total {
                let want = Int(min(Int64(rng.next() % 64) + 1, total - next))
                let wrote = producer.tryWrite(maxCount: want) { span in
                    // Only the sequence number matters; the rest is a fixed pattern. The number is
                    // stored as a field of its own through `pointee` (whose addressor inlines even
                    // in debug builds): a plain 8-byte store that ThreadSanitizer instruments,
                    // unlike the 32-byte record copy before it.
                    let base = span.baseAddress!
                    for i in 0..<span.count {
                        (base + i).pointee = pattern
                        (base + i).pointee.raw.timestamp_ns = next + Int64(i)
                    }
                    return span.count
                }
                next += Int64(wrote)
                if wrote == 0 { backOff(&spins) } else { spins = 0 }
            }
            return next
        }
        let checking = startThread { [consumer] in
            var rng = SplitMix64(seed: 0xC0FFEE)
            var expected: Int64 = 0
            var firstError: String?
            var spins = 0
            while expected < total && firstError == nil {
                let got = consumer.read(maxCount: Int(rng.next() % 64) + 1) { span in
                    let base = span.baseAddress!
                    for i in 0..<span.count where (base + i).pointee.raw.timestamp_ns != expected + Int64(i) {
                        firstError = "expected \(expected + Int64(i)), got \((base + i).pointee.raw.timestamp_ns)"
                        break
                    }
                }
                expected += Int64(got)
                if got == 0 { backOff(&spins) } else { spins = 0 }
            }
            return (received: expected, firstError: firstError)
        }
        let sent = await producing.value
        let result = await checking.value
        #expect(result.firstError == nil)
        #expect(sent == total && result.received == total)
        #expect(ring.droppedCount == 0)
        #expect(ring.count == 0)
    }

    /// A producer that never waits against a slower consumer: whatever it cannot place is counted,
    /// and what arrives is still strictly increasing, so received + dropped == sent.
    @Test func droppingProducerCountsEverySampleItCouldNotPlace() async {
        let total = itemCount(default: 100_000_000) / 20
        let ring = SampleRing(capacity: 64)
        let producer = ring.makeProducer()
        let consumer = ring.makeConsumer()
        let done = Flag()

        let sending = startThread { [producer] in
            var batch = [IMUSample](repeating: sample(0), count: 48)
            var next: Int64 = 0
            while next < total {
                let n = Int(min(48, total - next))
                for i in 0..<n { batch[i].raw.timestamp_ns = next + Int64(i) }
                batch.withUnsafeBufferPointer { _ = producer.push(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
                next += Int64(n)
            }
            done.set()
            return next
        }
        let receiving = startThread { [consumer] in
            var buffer = [IMUSample](repeating: sample(0), count: 16)
            var last: Int64 = -1
            var count: Int64 = 0
            var ordered = true
            while true {
                let finished = done.isSet  // read before popping: then an empty ring means the end
                let moved = buffer.withUnsafeMutableBufferPointer { consumer.pop(into: $0) }
                for i in 0..<moved {
                    ordered = ordered && buffer[i].raw.timestamp_ns > last
                    last = buffer[i].raw.timestamp_ns
                }
                count += Int64(moved)
                if moved == 0 && finished { break }
            }
            return (count: count, ordered: ordered)
        }
        let produced = await sending.value
        let consumed = await receiving.value
        #expect(produced == total)
        #expect(consumed.ordered)
        #expect(consumed.count > 0)  // at least the last ring-full survives
        #expect(Int64(ring.droppedCount) + consumed.count == total)
    }
}

// MARK: - Helpers

private func sample(
    _ sequence: Int64, acceleration: SIMD3<Float> = SIMD3(0, 0, 1), angularRate: SIMD3<Float> = .zero
) -> IMUSample {
    IMUSample(timestampNanoseconds: sequence, acceleration: acceleration, angularRate: angularRate)
}

/// Reads everything through the zero-copy spans (several when they cross the end of the slots).
private func drain(_ consumer: borrowing SampleRing.Consumer) -> [Int] {
    var seen: [Int] = []
    while consumer.read(maxCount: Int.max, { span in seen += span.map { Int($0.timestampNanoseconds) } }) > 0 {}
    return seen
}

private func itemCount(default count: Int64) -> Int64 {
    ProcessInfo.processInfo.environment["SAMPLE_RING_TEST_ITEMS"].flatMap(Int64.init) ?? count
}

/// Runs `body` on a thread of its own, started at once: the ring's two sides must run truly in
/// parallel, and spinning on the cooperative pool would starve the other tests.
private func startThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
    let result = ThreadResult<T>()
    Thread { result.finish(body()) }.start()
    return result
}

/// The value a thread returns, awaited without blocking a cooperative thread.
private final class ThreadResult<T: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<T, Never>)
        case finished(T)
    }
    private let state = Mutex(State.running)

    func finish(_ value: T) {
        let waiter: CheckedContinuation<T, Never>? = state.withLock { state in
            defer { state = .finished(value) }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: value)
    }

    var value: T {
        get async {
            await withCheckedContinuation { continuation in
                let ready: T? = state.withLock { state in
                    if case .finished(let value) = state { return value }
                    state = .waiting(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// Spin briefly, then yield: two cores are shared with the rest of the test run.
private func backOff(_ spins: inout Int) {
    spins += 1
    if spins > 64 { sched_yield() }
}

/// A one-way flag between the test's threads.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

