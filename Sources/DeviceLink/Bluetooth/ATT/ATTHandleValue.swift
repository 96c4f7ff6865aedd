/// One attribute handle with its value, as Read By Type responses and notifications carry it.
public struct ATTHandleValue: Sendable, Equatable {
    public var handle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}
