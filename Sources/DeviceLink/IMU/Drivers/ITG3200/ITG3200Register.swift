/// ITG-3200 registers (InvenSense ITG-3200 product specification PS-ITG-3200A, section 8).
enum ITG3200Register {
    static let whoAmI: UInt8 = 0x00
    static let sampleRateDivider: UInt8 = 0x15
    /// DLPF_FS: FS_SEL bits 4:3 (3 = ±2000 °/s, the only supported value), DLPF_CFG bits 2:0.
    static let dlpfFullScale: UInt8 = 0x16
    static let interruptConfig: UInt8 = 0x17
    static let interruptStatus: UInt8 = 0x1A
    static let temperatureOutH: UInt8 = 0x1B
    static let gyroXOutH: UInt8 = 0x1D
    static let powerManagement: UInt8 = 0x3E

    static let fullScale2000: UInt8 = 0x18
    /// INT_CFG: RAW_RDY_EN; INT_STATUS: RAW_DATA_RDY.
    static let rawReady: UInt8 = 0x01
    /// PWR_MGM: H_RESET, SLEEP, CLK_SEL = PLL with the X gyroscope's reference.
    static let deviceReset: UInt8 = 0x80
    static let sleep: UInt8 = 0x40
    static let clockPLLX: UInt8 = 0x01
    /// 14.375 LSB per °/s at ±2000 °/s.
    static let lsbPerDPS: Float = 14.375
    /// DLPF_CFG 1...6 corners, Hz (0, 256 Hz, runs the internal rate at 8 kHz).
    static let lowPassCorners: [Double] = [188, 98, 42, 20, 10, 5]
}
