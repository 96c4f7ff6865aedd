import CBluetooth
import FallDetect
#if canImport(Glibc)
import Glibc
#endif

/// An LE scan over a raw HCI socket with the legacy commands, as BlueZ's `hcitool lescan` does:
/// active scanning (to get the scan responses that carry names), duplicates filtered by the
/// controller and again in `ScanResults`, the socket filtered to LE meta events, scanning
/// disabled and the filter restored on every way out. Raw HCI needs CAP_NET_RAW; it bypasses
/// bluetoothd's own scanning, so both must not scan at once (docs/keychain.md).
public struct HCIScanner: Sendable {
    /// "hci0"; nil takes the first adapter.
    public var adapter: String?

    public init(adapter: String? = nil) { self.adapter = adapter }

    /// Scans for `seconds`, calling `onReport` for each report; blocks the calling thread.
    public func scan(seconds: Double, onReport: (AdvertisingReport) -> Void) throws(BluetoothScanError) -> ScanResults {
        let name = adapter ?? "hci0"
        let id = adapter.map { hci_devid($0) } ?? hci_get_route(nil)
        guard id >= 0 else { throw BluetoothScanError(errno: cbluetooth_last_error(), operation: "find the adapter", adapter: name) }
        let dd = hci_open_dev(id)
        guard dd >= 0 else { throw BluetoothScanError(errno: cbluetooth_last_error(), operation: "open the adapter", adapter: name) }
        defer { hci_close_dev(dd) }

        var saved = hci_filter()
        var savedLength = socklen_t(MemoryLayout<hci_filter>.size)
        guard getsockopt(dd, SOL_HCI, HCI_FILTER, &saved, &savedLength) == 0 else {
            throw BluetoothScanError(errno: errno, operation: "read the socket filter", adapter: name)
        }
        // 10 ms interval and window, active, our public address, accept all (hcitool's values);
        // libbluetooth takes these little-endian (htobs), which is the host order here.
        guard hci_le_set_scan_parameters(dd, 0x01, UInt16(0x0010).littleEndian, UInt16(0x0010).littleEndian, 0x00, 0x00, 1000) >= 0 else {
            throw BluetoothScanError(errno: cbluetooth_last_error(), operation: "set scan parameters", adapter: name)
        }
        guard hci_le_set_scan_enable(dd, 0x01, 0x01, 1000) >= 0 else {
            throw BluetoothScanError(errno: cbluetooth_last_error(), operation: "enable scanning", adapter: name)
        }
        defer {
            _ = hci_le_set_scan_enable(dd, 0x00, 0x01, 1000)
            _ = setsockopt(dd, SOL_HCI, HCI_FILTER, &saved, savedLength)
        }
        var filter = hci_filter()
        hci_filter_clear(&filter)
        hci_filter_set_ptype(HCI_EVENT_PKT, &filter)
        hci_filter_set_event(EVT_LE_META_EVENT, &filter)
        guard setsockopt(dd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) == 0 else {
            throw BluetoothScanError(errno: errno, operation: "set the socket filter", adapter: name)
        }

        var results = ScanResults()
        var buffer = [UInt8](repeating: 0, count: Int(HCI_MAX_EVENT_SIZE))
        let deadline = MonotonicTime.nowNanoseconds() + Int64(seconds * 1e9)
        while true {
            let left = deadline - MonotonicTime.nowNanoseconds()
            guard left > 0 else { break }
            var fds = [pollfd(fd: dd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 1, Int32(min(left / 1_000_000 + 1, 500)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw BluetoothScanError(errno: errno, operation: "wait for reports", adapter: name)
            }
            guard ready > 0 else { continue }
            let count = read(dd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw BluetoothScanError(errno: errno, operation: "read reports", adapter: name)
            }
            // A packet we cannot read is skipped: one bad report must not end the scan.
            guard let reports = try? AdvertisingReportParser.parse(Array(buffer[0..<count])) else { continue }
            for report in reports {
                results.add(report)
                onReport(report)
            }
        }
        return results
    }
}
