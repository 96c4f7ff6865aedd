import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct WakeDescriptorTests {
    @Test func aSignalWakesAndDrainEmpties() throws {
        let wake = try WakeDescriptor()
        defer { wake.close() }
        wake.signal()
        var byte: UInt8 = 0
        #expect(read(wake.readable, &byte, 1) == 1)
        wake.signal()
        wake.drain()
        #expect(read(wake.readable, &byte, 1) == -1 && errno == EAGAIN)
    }

    /// After close the descriptor numbers are free, and the next pipe usually gets them: a late
    /// signal or a second close must not touch it.
    @Test func afterCloseNeitherSignalNorCloseTouchesTheNumbersReused() throws {
        let wake = try WakeDescriptor()
        wake.close()
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        // Linux hands out the lowest free numbers: the new pipe has the closed one's. Were it
        // otherwise, nothing below would be tested.
        try #require(Set(fds) == [wake.readable, wake.writable], "the numbers were not reused: \(fds)")
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        wake.signal()
        wake.close()
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == -1 && errno == EAGAIN, "nothing was written into the new pipe")
        #expect(fcntl(fds[0], F_GETFD) != -1 && fcntl(fds[1], F_GETFD) != -1, "the new pipe is still open")
    }
}
