/// Register addresses and bits of the ST LSM6 family (LSM6DS3/DSL and LSM6DSO data sheets; kernel
/// `st_lsm6dsx_core.c`, `st_lsm6dsx_buffer.c`; ../shared/reference/hardware.md section 2.2).
enum LSM6Register {
    static let whoAmI: UInt8 = 0x0F
    /// ODR_XL 7:4, FS_XL 3:2, filter bits 1:0 (their meaning differs per model).
    static let ctrl1XL: UInt8 = 0x10
    /// ODR_G 7:4, FS_G 3:2.
    static let ctrl2G: UInt8 = 0x11
    /// BOOT 7, BDU 6, IF_INC 2, SW_RESET 0.
    static let ctrl3C: UInt8 = 0x12
    /// LSM6DS3 only: XL_BW_SCAL_ODR bit 7 (BW_XL in CTRL1_XL applies).
    static let ctrl4C: UInt8 = 0x13
    /// LSM6DSO: HPCF_XL 7:5 (the LPF2 corner when CTRL1_XL bit 1 enables it).
    static let ctrl8XL: UInt8 = 0x17
    /// XLDA bit 0, GDA bit 1.
    static let status: UInt8 = 0x1E
    /// OUTX_L_G: gyroscope 0x22–0x27 then accelerometer 0x28–0x2D, little-endian.
    static let outGyroX: UInt8 = 0x22
    static let fifoStatus1: UInt8 = 0x3A
    /// FIFO_STATUS2: the flags (and the count's high bits).
    static let fifoStatus2: UInt8 = 0x3B

    // Untagged FIFO (LSM6DS3/DSL).
    /// FIFO_CTRL1/2: threshold in 16-bit words (12 bits on the DS3, 11 on the DSL).
    static let fifoThresholdLow: UInt8 = 0x06
    static let fifoThresholdHigh: UInt8 = 0x07
    /// FIFO_CTRL3: gyroscope decimation 5:3, accelerometer 2:0 (1 = every sample).
    static let fifoDecimation: UInt8 = 0x08
    /// FIFO_CTRL5: FIFO ODR 6:3, mode 2:0.
    static let fifoControl5: UInt8 = 0x0A
    /// FIFO_DATA_OUT_L; a read past 0x3F rolls back here.
    static let fifoDataOut: UInt8 = 0x3E

    // Tagged FIFO (LSM6DSO/DSOX).
    /// FIFO_CTRL1/2: watermark in words, 9 bits (bit 8 in FIFO_CTRL2 bit 0).
    static let tagWatermarkLow: UInt8 = 0x07
    static let tagWatermarkHigh: UInt8 = 0x08
    /// FIFO_CTRL3: gyroscope batch rate 7:4, accelerometer 3:0.
    static let tagBatchRate: UInt8 = 0x09
    /// FIFO_CTRL4: mode 2:0.
    static let tagFIFOMode: UInt8 = 0x0A
    /// FIFO_DATA_OUT_TAG, then six data bytes; a read past 0x7E rolls back here.
    static let tagDataOut: UInt8 = 0x78

    static let swReset: UInt8 = 0x01
    static let ifInc: UInt8 = 0x04
    static let bdu: UInt8 = 0x40
    static let accelerometerReady: UInt8 = 0x01
    static let gyroscopeReady: UInt8 = 0x02
    static let fifoBypass: UInt8 = 0
    static let fifoContinuous: UInt8 = 6
}
