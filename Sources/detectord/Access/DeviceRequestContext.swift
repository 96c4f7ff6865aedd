import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the peer's address: loopback callers (the device's own
/// tools) need no login, everyone else does.
struct DeviceRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// 127.0.0.0/8, ::1, or IPv4-mapped loopback.
    var isLoopback: Bool {
        guard let address = remoteAddress?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
