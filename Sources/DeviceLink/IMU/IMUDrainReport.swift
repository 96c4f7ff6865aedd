/// What one drain found besides its readings.
public struct IMUDrainReport: Sendable, Equatable {
    /// Readings appended.
    public var count: Int
    /// The FIFO had overflowed (or its count made no sense) and was reset: samples were lost
    /// before these, and how many is for the streamer to estimate from the time.
    public var overflowed: Bool
    /// Why, for the log: "FIFO overflow", "FIFO count 0x1FFF exceeds 1024 bytes".
    public var detail: String?
    /// Bytes left in the FIFO that did not make a whole record (a record being written).
    public var partialBytes: Int

    public init(count: Int, overflowed: Bool = false, detail: String? = nil, partialBytes: Int = 0) {
        self.count = count
        self.overflowed = overflowed
        self.detail = detail
        self.partialBytes = partialBytes
    }
}
