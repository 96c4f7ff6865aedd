/// A chip's FIFO as bytes: records go in at the output rate, reads pop from the front, and a
/// full FIFO either drops the oldest bytes (stream mode: what the MPU family does, leaving the
/// next read misaligned) or stops taking new ones (FIFO mode), setting the overflow flag.
public struct SimulatedFIFO: Sendable {
    public let capacity: Int
    public var keepsNewest: Bool
    public private(set) var bytes: [UInt8] = []
    private var head = 0
    public var overflowed = false

    public init(capacity: Int, keepsNewest: Bool = true) {
        self.capacity = capacity
        self.keepsNewest = keepsNewest
    }

    public var count: Int { bytes.count - head }

    public mutating func push(_ record: [UInt8]) {
        if count + record.count > capacity {
            overflowed = true
            guard keepsNewest else { return }
            // Drops just enough old bytes, not whole records.
            head += count + record.count - capacity
        }
        bytes.append(contentsOf: record)
        if head > 4096 {
            bytes.removeFirst(head)
            head = 0
        }
    }

    /// The next byte, or `empty` when there is none (chips return a fixed value then).
    public mutating func pop(empty: UInt8 = 0) -> UInt8 {
        guard head < bytes.count else { return empty }
        defer { head += 1 }
        return bytes[head]
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        head = 0
        overflowed = false
    }
}
