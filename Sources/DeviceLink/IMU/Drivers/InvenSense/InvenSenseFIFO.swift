/// The drain the MPU family and the ICM-20948 share once they have read their overflow flag and
/// FIFO count: a count beyond the FIFO or a FIFO about to overflow is reset and reported as a
/// break; otherwise every whole 12-byte record comes out in one read of the FIFO port, which
/// does not auto-increment. The FIFO drops its oldest bytes when full, so one that overflowed
/// while the read was under way (a long burst at 100 kHz, or the thread held up between count and
/// read) handed out records shifted mid-record. When the time since the count was read (`clock`
/// from `countedAt`) was long enough for the FIFO to fill at the configured rate, with room for a
/// fast chip, the flag is read again, and such a batch is thrown away as a break, never pushed as
/// motion; the usual drain stays at three transfers.
enum InvenSenseFIFO {
    static func drain(
        count: Int, overflowFlag: Bool, fifoBytes: Int, buffer: UnsafeMutableRawBufferPointer, configuration: IMUConfiguration,
        into readings: inout [IMUReading], readPort: (UnsafeMutableRawBufferPointer) throws(IMUError) -> Void,
        countedAt: Int64, clock: any IMUClock, overflowedSince: () throws(IMUError) -> Bool, reset: () throws(IMUError) -> Void
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
            let seconds = Double(clock.nowNanoseconds() - countedAt) / 1e9
            let arrived = seconds * configuration.rateHz * 1.25 * Double(InvenSenseSettings.recordBytes) + 2 * Double(record)
            if Double(count) + arrived >= Double(fifoBytes), try overflowedSince() {
                try reset()
                return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overflow while \(records * record) bytes were read")
            }
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
