import Foundation
import Testing
@testable import DeviceLink
import FallDetect
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SerialPortTests {
    /// A pseudo-terminal pair: the port under test opens the slave, the test writes the master.
    final class PTY {
        private(set) var master: Int32
        let path: String

        init() throws {
            let pty = try PseudoTerminal()
            master = pty.master
            path = pty.path
        }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        }

        func received() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 256)
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 1000) > 0 else { return [] }
            let n = read(master, &buffer, buffer.count)
            return n > 0 ? Array(buffer[..<n]) : []
        }

        /// Closes the master side, as unplugging a USB modem removes the device.
        func hangUp() {
            close(master)
            master = -1
        }

        deinit { if master >= 0 { close(master) } }
    }

    @Test func aMissingDeviceNamesThePathAndErrno() {
        #expect(throws: FallDetectError.self) { try SerialPort(path: "/nonexistent/ttyS9") }
        do {
            _ = try SerialPort(path: "/nonexistent/ttyS9")
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.path == "/nonexistent/ttyS9")
        }
    }

    @Test func aFileThatIsNotATerminalIsRefused() {
        do {
            _ = try SerialPort(path: "/dev/null")
            Issue.record("/dev/null accepted as a serial port")
        } catch {
            #expect(error.errno == ENOTTY)
        }
    }

    /// A second opener would read the first one's replies: it is refused, by name, until the
    /// first closes the port.
    @Test func aPortInUseIsRefusedUntilItsOwnerClosesIt() throws {
        let pty = try PTY()
        let first = try SerialPort(path: pty.path)
        do {
            _ = try SerialPort(path: pty.path)
            Issue.record("a port already open was opened again")
        } catch {
            #expect(error.errno == EWOULDBLOCK)
            #expect(error.path == pty.path)
            #expect(error.message.contains("in use"))
        }
        first.close()
        let second = try SerialPort(path: pty.path)
        pty.send(Array("OK\r\n".utf8))
        #expect(try second.readLine(timeout: 1) == "OK")
    }

    @Test func anUnsupportedBaudRateIsRefused() throws {
        let pty = try PTY()
        do {
            _ = try SerialPort(path: pty.path, baudRate: 12345)
            Issue.record("12345 baud accepted")
        } catch {
            #expect(error.field == "baud")
        }
    }

    @Test func linesArriveWhole() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        pty.send(Array("\r\nOK\r\n+CMGS: 4".utf8))
        #expect(try port.readLine(timeout: 1) == "OK")
        #expect(try port.readLine(timeout: 0.1) == nil) // "+CMGS: 4" has no line end yet
        pty.send(Array("2\r\n".utf8))
        #expect(try port.readLine(timeout: 1) == "+CMGS: 42")
    }

    @Test func aSilentLineTimesOut() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        let start = ContinuousClock.now
        #expect(try port.readLine(timeout: 0.2) == nil)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(190) && elapsed < .seconds(10))
    }

    @Test func rawModeSendsBytesUntranslated() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        try port.write([0x41, 0x0A, 0x1A, 0x00], timeout: 1)
        // No LF→CRLF (OPOST off), Ctrl-Z and NUL pass as data.
        #expect(pty.received() == [0x41, 0x0A, 0x1A, 0x00])
        // And input is not echoed back (ECHO off).
        pty.send(Array("AT\r".utf8))
        #expect(try port.readLine(timeout: 1) == "AT")
        var pfd = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 100) == 0)
    }

    @Test func thePromptIsFoundWithoutALineEnd() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        pty.send(Array("\r\n> ".utf8))
        #expect(try port.readPrompt("> ", timeout: 1) == .prompt)
        pty.send(Array("\r\n+CMS ERROR: 500\r\n".utf8))
        #expect(try port.readPrompt("> ", timeout: 1) == .line("+CMS ERROR: 500"))
        #expect(try port.readPrompt("> ", timeout: 0.1) == .timeout)
    }

    @Test func aHungUpLineIsAnErrorNotASpin() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        pty.hangUp()
        let start = ContinuousClock.now
        #expect(throws: FallDetectError.self) { try port.readLine(timeout: 30) }
        #expect(ContinuousClock.now - start < .seconds(10), "the hang-up is reported at once, not after the 30 s timeout")
    }

    /// Noise that never ends a line (a modem babbling at the wrong baud rate) comes back in pieces
    /// of the longest line, rather than growing the buffer for as long as it lasts.
    @Test func aLineWithoutEndComesBackInPieces() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        let noise = [UInt8](repeating: 0x78, count: 3000)
        pty.send(noise)
        #expect(try port.readLine(timeout: 0.1) == nil, "3000 bytes may still be one line")
        pty.send(noise)
        #expect(try port.readLine(timeout: 1)?.utf8.count == SerialPort.maximumLineLength)
        #expect(try port.readLine(timeout: 0.1) == nil, "the rest waits for more")
        pty.send(noise)
        #expect(try port.readPrompt("> ", timeout: 1) == .line(String(repeating: "x", count: SerialPort.maximumLineLength)))
        pty.send(Array("\r\nOK\r\n".utf8))
        #expect(try port.readLine(timeout: 1) == String(repeating: "x", count: 9000 - 2 * SerialPort.maximumLineLength))
        #expect(try port.readLine(timeout: 1) == "OK")
    }

    @Test func garbageBytesBecomeReplacementCharacters() throws {
        let pty = try PTY()
        let port = try SerialPort(path: pty.path)
        pty.send([0xFF, 0x41, 0x0D, 0x0A])
        #expect(try port.readLine(timeout: 1) == "\u{FFFD}A")
    }
}
