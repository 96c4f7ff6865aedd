/// The attribute table of a fake peripheral, laid out the way a GATT server lays it out: each
/// service declaration, then per characteristic its declaration, its value and its descriptors.
public struct FakeGATTDatabase: Sendable, Equatable {
    public private(set) var attributes: [FakeGATTAttribute] = []
    /// Each characteristic's service, UUID, value handle and CCCD handle, in handle order.
    public private(set) var characteristics: [(service: BluetoothUUID, uuid: BluetoothUUID, value: UInt16, configuration: UInt16?)] = []
    private var currentService = BluetoothUUID(0x1800)

    /// The value handle (and CCCD) of a characteristic in a service.
    public func handles(service: BluetoothUUID, characteristic: BluetoothUUID) -> (value: UInt16, configuration: UInt16?)? {
        characteristics.first { $0.service == service && $0.uuid == characteristic }.map { ($0.value, $0.configuration) }
    }

    public static func == (lhs: FakeGATTDatabase, rhs: FakeGATTDatabase) -> Bool { lhs.attributes == rhs.attributes }

    public init(startingAt first: UInt16 = 1) { nextHandle = first }

    private var nextHandle: UInt16

    private mutating func add(_ type: BluetoothUUID, _ value: [UInt8], readable: Bool = true, writable: Bool = false) -> UInt16 {
        let handle = nextHandle
        attributes.append(FakeGATTAttribute(handle: handle, type: type, value: value, readable: readable, writable: writable))
        nextHandle += 1
        return handle
    }

    public mutating func service(_ uuid: BluetoothUUID) {
        currentService = uuid
        _ = add(.primaryService, uuid.littleEndian)
    }

    /// Adds a characteristic (declaration, value, and a CCCD when it can notify or indicate,
    /// unless `withoutCCCD`: firmware that declares notify and has none).
    public mutating func characteristic(_ uuid: BluetoothUUID, _ properties: GATTCharacteristicProperties, value: [UInt8], withoutCCCD: Bool = false) {
        let valueHandle = nextHandle + 1
        _ = add(.characteristic, [properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + uuid.littleEndian)
        let writable = !properties.isDisjoint(with: [.write, .writeWithoutResponse])
        let handle = add(uuid, value, readable: properties.contains(.read), writable: writable)
        var configuration: UInt16?
        if !properties.isDisjoint(with: [.notify, .indicate]), !withoutCCCD {
            configuration = add(.clientCharacteristicConfiguration, [0, 0], writable: true)
        }
        characteristics.append((currentService, uuid, handle, configuration))
    }

    /// Skips handles, as real firmware leaves gaps between services.
    public mutating func gap(_ count: UInt16) { nextHandle += count }

    public func attribute(_ handle: UInt16) -> FakeGATTAttribute? { attributes.first { $0.handle == handle } }

    public mutating func setValue(_ value: [UInt8], at handle: UInt16) {
        guard let index = attributes.firstIndex(where: { $0.handle == handle }) else { return }
        attributes[index].value = value
    }

    /// The last handle of the service whose declaration is at `handle`.
    public func serviceEnd(_ handle: UInt16) -> UInt16 {
        let next = attributes.first { $0.handle > handle && $0.type == .primaryService }
        return next.map { $0.handle - 1 } ?? (attributes.last?.handle ?? handle)
    }

    /// An iTag as sold (ST17H26 firmware): GAP, Immediate Alert, Link Loss, Battery, then the
    /// 0xFFE0 key service whose 0xFFE1 notifies 0x01 per press (hardware.md §5.1).
    /// `batteryNotifies` false: a clone whose battery level can only be read.
    public static func iTag(battery: UInt8 = 96, name: String = "iTAG            ", batteryNotifies: Bool = true) -> FakeGATTDatabase {
        var db = FakeGATTDatabase()
        db.service(BluetoothUUID(0x1800))
        db.characteristic(BluetoothUUID(0x2A00), [.read], value: Array(name.utf8))
        db.characteristic(BluetoothUUID(0x2A01), [.read], value: [0xC1, 0x03])
        db.service(BluetoothUUID(0x1802))
        db.characteristic(BluetoothUUID(0x2A06), [.writeWithoutResponse, .write], value: [0])
        db.service(BluetoothUUID(0x1803))
        db.characteristic(BluetoothUUID(0x2A06), [.read, .write], value: [1])
        db.service(BluetoothUUID(0x180F))
        db.characteristic(BluetoothUUID(0x2A19), batteryNotifies ? [.read, .notify] : [.read], value: [battery])
        db.service(BluetoothUUID(0xFFE0))
        db.characteristic(BluetoothUUID(0xFFE1), [.read, .notify], value: [0])
        return db
    }

    /// Another button's layout: handles from 0x0020 with gaps, a 128-bit vendor button service
    /// whose characteristic indicates rather than notifies, the battery without notify, and no
    /// Link Loss service.
    public static let vendorButtonService = BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")!
    public static let vendorButtonCharacteristic = BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e")!

    public static func vendorButton(battery: UInt8 = 55) -> FakeGATTDatabase {
        var db = FakeGATTDatabase(startingAt: 0x0020)
        db.service(BluetoothUUID(0x1800))
        db.characteristic(BluetoothUUID(0x2A00), [.read], value: Array("SOS Button".utf8))
        db.gap(12)
        db.service(vendorButtonService)
        db.characteristic(vendorButtonCharacteristic, [.indicate], value: [0])
        db.gap(5)
        db.service(BluetoothUUID(0x180F))
        db.characteristic(BluetoothUUID(0x2A19), [.read], value: [battery])
        db.service(BluetoothUUID(0x1802))
        db.characteristic(BluetoothUUID(0x2A06), [.write], value: [0])
        return db
    }
}
