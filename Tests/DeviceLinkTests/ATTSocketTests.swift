#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import DeviceLink

/// The L2CAP socket's errors: which mean the link is gone, so the bearer still reads the frames
/// queued behind the error (a press sent just before the drop) and then reports the drop.
@Suite struct ATTSocketTests {
    /// The errnos the kernel makes from Bluetooth disconnect reasons (`bt_to_errno`): an LL
    /// response timeout (0x22) is ENOSYS, a hardware failure EIO, a page timeout EHOSTDOWN, an
    /// LMP/LL protocol error EPROTO, a rejected connection ECONNREFUSED.
    @Test(arguments: [ENOSYS, EIO, EHOSTDOWN, EPROTO, ECONNREFUSED, ETIMEDOUT, ECONNRESET, ECONNABORTED, ENOTCONN, EPIPE, EACCES, EOPNOTSUPP])
    func aDisconnectReasonEndsTheLink(errno code: Int32) {
        #expect(ATTSocket.linkEnded(errno: code))
    }

    /// A descriptor already closed, or a bad argument, is the call's error, not the link's.
    @Test(arguments: [EBADF, ENOTSOCK, EFAULT, EINVAL])
    func anErrorOfTheCallItselfIsNotADrop(errno code: Int32) {
        #expect(!ATTSocket.linkEnded(errno: code))
    }
}
