import Foundation
import Synchronization

/// The device's own radio: an LE scan over a raw HCI socket, connections over L2CAP.
public struct KernelKeychainRadio: KeychainRadio {
    /// "hci0"; nil takes the first adapter.
    public var adapter: String?
    /// Button services to accept besides the iTag's (`[keychain] button_service`).
    public var extraServices: [BluetoothUUID]

    public init(adapter: String? = nil, extraServices: [BluetoothUUID] = []) {
        self.adapter = adapter
        self.extraServices = extraServices
    }

    /// Scans on a thread of its own: the scan blocks in poll() for its whole length.
    public func scan(seconds: Double, progress: @escaping @Sendable (Int) -> Void) async throws(KeychainPairingError) -> [KeychainCandidate] {
        let scanner = HCIScanner(adapter: adapter)
        let extra = extraServices
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<[KeychainCandidate], BluetoothScanError>, Never>) in
            Thread {
                var seen = ScanResults()
                seen.keychainServices.formUnion(extra)
                do throws(BluetoothScanError) {
                    var results = try scanner.scan(seconds: seconds) { report in
                        seen.add(report)
                        progress(seen.keychains.count)
                    }
                    results.keychainServices.formUnion(extra)
                    done.resume(returning: .success(results.keychains))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }.start()
        }
        switch result {
        case .success(let found): return found
        case .failure(let error): throw .scan(error.description)
        }
    }

    public func connector(for address: BluetoothAddress, type: BluetoothAddressType) -> any KeychainConnector {
        L2CAPConnector(address: address, addressType: type)
    }
}
