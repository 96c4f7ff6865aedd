import CFusion

extension SampleRing {
    /// The reading end of a ``SampleRing``: one per ring, used by one thread at a time (move it into
    /// the detector's thread with a capture list, `Thread { [consumer] in … }`).
    public struct Consumer: ~Copyable, Sendable {
        /// The ring this handle reads from.
        public let ring: SampleRing

        init(ring: SampleRing) { self.ring = ring }

        /// Removes and returns the oldest sample, or nil when the ring is empty.
        public func pop() -> IMUSample? {
            var raw = cfusion_sample()
            return cfusion_ring_pop(ring.cRing, &raw) ? IMUSample(raw: raw) : nil
        }

        /// Moves up to `buffer.count` of the oldest samples into `buffer` (from its start), frees
        /// their slots at once and returns how many it moved.
        public func pop(into buffer: UnsafeMutableBufferPointer<IMUSample>) -> Int {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
            let moved = UnsafeMutableRawPointer(base).withMemoryRebound(to: cfusion_sample.self, capacity: buffer.count) {
                cfusion_ring_pop_bulk(ring.cRing, $0, UInt32(clamping: buffer.count))
            }
            return Int(moved)
        }

        /// Samples ready to read: a lower bound, since the producer may add more.
        public var availableCount: Int {
            Int(cfusion_ring_available(ring.cRing))
        }

        /// Samples the producer has dropped so far because the ring was full.
        public var droppedCount: UInt64 { ring.droppedCount }

        /// Lends `body` up to `maxCount` of the oldest samples, contiguous in memory and in order,
        /// then frees them; returns how many. The span is shorter when fewer are ready or it
        /// reaches the end of the slot array (call again for the rest); when the ring is empty
        /// `body` is not called and the result is 0. If `body` throws, nothing is freed.
        @discardableResult
        public func read<E: Error>(
            maxCount: Int,
            _ body: (UnsafeBufferPointer<IMUSample>) throws(E) -> Void
        ) throws(E) -> Int {
            var span: UnsafeMutablePointer<cfusion_sample>?
            let ready = Int(cfusion_ring_peek(ring.cRing, UInt32(clamping: max(0, maxCount)), &span))
            guard ready > 0, let span else { return 0 }
            try body(UnsafeBufferPointer(start: ring.samples(at: span), count: ready))
            cfusion_ring_release(ring.cRing, UInt32(ready))
            return ready
        }
    }
}
