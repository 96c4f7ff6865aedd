import CFusion

extension SampleRing {
    /// The writing end of a ``SampleRing``: one per ring, used by one thread at a time (move it into
    /// the sensor thread with a capture list, `Thread { [producer] in … }`). Never waits.
    public struct Producer: ~Copyable, Sendable {
        /// The ring this handle writes to.
        public let ring: SampleRing

        init(ring: SampleRing) { self.ring = ring }

        /// Appends `sample`; when the ring is full, drops it, counts it in
        /// ``SampleRing/droppedCount`` and returns false.
        @discardableResult
        public func push(_ sample: IMUSample) -> Bool {
            withUnsafePointer(to: sample.raw) { cfusion_ring_push(ring.cRing, $0) }
        }

        /// Appends `sample` and returns true, or returns false when the ring is full, counting
        /// nothing as dropped: for a producer that would rather retry later.
        public func tryPush(_ sample: IMUSample) -> Bool {
            withUnsafePointer(to: sample.raw) { cfusion_ring_try_push(ring.cRing, $0) }
        }

        /// Appends as many of `samples` as fit, drops and counts the rest, and returns how many
        /// were stored. All of them become visible to the consumer at once.
        @discardableResult
        public func push(contentsOf samples: UnsafeBufferPointer<IMUSample>) -> Int {
            guard let base = samples.baseAddress, !samples.isEmpty else { return 0 }
            let count = UInt32(clamping: samples.count)
            let stored = UnsafeRawPointer(base).withMemoryRebound(to: cfusion_sample.self, capacity: samples.count) {
                cfusion_ring_push_bulk(ring.cRing, $0, count)
            }
            // Beyond 2^32 - 1 samples in one call the remainder is dropped too.
            let remainder = samples.count - Int(count)
            if remainder > 0 { cfusion_ring_drop(ring.cRing, UInt64(remainder)) }
            return Int(stored)
        }

        /// Free slots as the producer sees them: a lower bound, since the consumer may free more.
        public var freeCount: Int {
            Int(cfusion_ring_free_count(ring.cRing))
        }

        /// Lends `body` up to `maxCount` free slots, contiguous in memory, to fill from the start;
        /// `body` returns how many it filled, and those are published at once. Returns that number.
        ///
        /// Drops nothing: the span is shorter than `maxCount` when the ring is nearly full or the
        /// span reaches the end of the slot array (call again for the rest), and when the ring is
        /// full `body` is not called and the result is 0. If `body` throws, nothing is published.
        /// The slots are uninitialised or hold old samples: write every one you count.
        @discardableResult
        public func tryWrite<E: Error>(
            maxCount: Int,
            _ body: (UnsafeMutableBufferPointer<IMUSample>) throws(E) -> Int
        ) throws(E) -> Int {
            var span: UnsafeMutablePointer<cfusion_sample>?
            let reserved = Int(cfusion_ring_try_reserve(ring.cRing, UInt32(clamping: max(0, maxCount)), &span))
            guard reserved > 0, let span else { return 0 }
            let filled = try body(UnsafeMutableBufferPointer(start: ring.samples(at: span), count: reserved))
            precondition(filled >= 0 && filled <= reserved, "SampleRing.Producer.tryWrite: body filled \(filled) of \(reserved)")
            if filled > 0 { cfusion_ring_commit(ring.cRing, UInt32(filled)) }
            return filled
        }

        /// Writes a batch of `count` samples straight into the ring: `body` fills each span it is
        /// lent (at most two, when the batch crosses the end of the slot array) and gets the index
        /// within the batch of the span's first sample. The samples that do not fit are dropped and
        /// counted, and `body` is not asked for them. Returns how many were stored.
        /// If `body` throws, the spans it already filled stay published and the rest is not counted.
        @discardableResult
        public func write<E: Error>(
            count: Int,
            _ body: (_ span: UnsafeMutableBufferPointer<IMUSample>, _ firstIndex: Int) throws(E) -> Void
        ) throws(E) -> Int {
            var stored = 0
            while stored < count {
                var span: UnsafeMutablePointer<cfusion_sample>?
                let reserved = Int(cfusion_ring_try_reserve(ring.cRing, UInt32(clamping: count - stored), &span))
                guard reserved > 0, let span else { break }
                try body(UnsafeMutableBufferPointer(start: ring.samples(at: span), count: reserved), stored)
                cfusion_ring_commit(ring.cRing, UInt32(reserved))
                stored += reserved
            }
            if stored < count { cfusion_ring_drop(ring.cRing, UInt64(count - stored)) }
            return stored
        }
    }
}
