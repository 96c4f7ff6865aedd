import CBluetooth

/// The local Bluetooth controller (hci0 and so on) as libbluetooth finds it.
public enum HCIAdapter {
    /// The id of the first available adapter, or the errno explaining why there is none
    /// (ENODEV without a controller; EAFNOSUPPORT on a kernel built without Bluetooth).
    public static func firstAvailable() -> Result<Int32, BluetoothError> {
        let id = hci_get_route(nil)
        return id >= 0 ? .success(id) : .failure(BluetoothError(errno: cbluetooth_last_error(), operation: "hci_get_route"))
    }
}
