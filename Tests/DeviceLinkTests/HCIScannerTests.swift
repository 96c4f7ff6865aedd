import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

/// The scanner's kernel path can only fail here (no Bluetooth in this kernel); it must fail with
/// an error that says why and what to do, not hang or trap. On a Pi it scans.
@Suite struct HCIScannerTests {
    @Test func withoutBluetoothTheErrorSaysWhy() throws {
        do {
            let results = try HCIScanner(adapter: nil).scan(seconds: 0.5) { _ in }
            // A machine with an adapter: the scan ran; a list (maybe empty) is the answer.
            #expect(results.devices.count >= 0)
        } catch {
            #expect([EAFNOSUPPORT, ENODEV, ENETDOWN, EPERM, EACCES, EIO, EBUSY].contains(error.errno), "\(error)")
            #expect(!error.guidance.isEmpty)
            #expect(error.description.contains(error.guidance))
            if error.errno == EAFNOSUPPORT { #expect(error.guidance.contains("no Bluetooth support")) }
            if error.errno == ENODEV { #expect(error.guidance.contains("no Bluetooth adapter")) }
        }
    }

    @Test func theKernelRadioReportsTheScanFailure() async {
        await #expect(throws: KeychainPairingError.self) {
            _ = try await KernelKeychainRadio(adapter: "hci7").scan(seconds: 0.2) { _ in }
        }
    }

    @Test func anL2CAPConnectWithoutBluetoothFailsWithGuidance() async {
        let connector = L2CAPConnector(address: BluetoothAddress("FF:FF:10:20:30:40")!, addressType: .public)
        do {
            _ = try await connector.connect(timeout: 0.5)
            Issue.record("connected without an adapter")
        } catch {
            guard case .system(let code, _) = error else { Issue.record("\(error)"); return }
            #expect(code != 0)
            if code == EAFNOSUPPORT { #expect(L2CAPConnector.guidance(error)?.contains("no Bluetooth") == true) }
        }
    }
}
