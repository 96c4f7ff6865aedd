/// One group from a Read By Group Type response: a service's first and last handle and its UUID.
public struct ATTGroupValue: Sendable, Equatable {
    public var handle: UInt16
    public var endHandle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, endHandle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.endHandle = endHandle
        self.value = value
    }
}
