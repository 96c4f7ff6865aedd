/// The drain the MPU family and the ICM-20948 share once they have read their overflow flag and
/// FIFO count: a count beyond the FIFO or a FIFO about to overflow is reset and reported as a
/// break; otherwise every whole 12-byte record comes out in one read of the FIFO port, which
/// does not auto-increment.
enum InvenSenseFIFO {
    static func drain(
        count: Int, overflowFlag: Bool, fifoBytes: Int, buffer: UnsafeMutableRawBufferPointer, configuration: IMUConfiguration,
        into readings: inout [IMUReading], readPort: (UnsafeMutableRawBufferPointer) throws(IMUError) -> Void, reset: () throws(IMUError) -> Void
    ) throws(IMUError) -> IMUDrainReport {
        if count > fifoBytes {
            try reset()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO count \(InvenSenseSettings.hex(count)) exceeds \(fifoBytes) bytes")
        }
        // After an overflow the oldest bytes were overwritten mid-record: nothing in it is aligned.
        if overflowFlag || count >= InvenSenseSettings.overflowThreshold(fifoBytes: fifoBytes) {
            try reset()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overflow (\(count) of \(fifoBytes) bytes)")
        }
        let record = InvenSenseSettings.recordBytes
        let records = count / record
        if records > 0 {
            let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(records * record)])
            try readPort(data)
            let bytes = UnsafeRawBufferPointer(data)
            readings.reserveCapacity(readings.count + records)
            for index in 0..<records {
                readings.append(InvenSenseSettings.reading(bytes, at: index * record, gyroOffset: index * record + 6,
                                                           lsbPerG: configuration.accelerometerLSBPerG, lsbPerDPS: configuration.gyroscopeLSBPerDPS))
            }
        }
        return IMUDrainReport(count: records, partialBytes: count - records * record)
    }
}
