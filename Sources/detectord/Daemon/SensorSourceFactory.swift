import DeviceLink
import FallDetect

/// Builds the configured sensor source: the I2C chip, a simulated chip behind the same drivers,
/// or a replay. `run` and `record` share it.
enum SensorSourceFactory {
    struct Made {
        var source: any SensorSource
        /// It ends by itself (a replay that does not loop).
        var finite: Bool
        /// The gyroscope's full scale asked of the chip, or the one the replayed recording
        /// declares: the AHRS's over-range check and a recording's header need it.
        var gyroscopeRange: Float
    }

    /// `keepsTrying`: the daemon's chip is looked for again whatever went wrong, so the rest of
    /// it stays up and says so; `record` stops with the error instead.
    static func make(
        _ sensor: SensorSettings, relay: SensorNoticeRelay, keepsTrying: Bool = false, fixes: @escaping @Sendable (GNSSFix) -> Void
    ) throws(FallDetectError) -> Made {
        switch sensor.source {
        case .replay(let replay):
            let source = try ReplaySensorSource(
                paths: [replay.path], speed: replay.speed, loops: replay.loop, fixes: fixes, notices: { relay.send(.text($0)) })
            return Made(source: source, finite: !replay.loop, gyroscopeRange: source.gyroscopeRange)
        case .i2c(let i2c):
            let source = I2CSensorSource(
                options: options(i2c, sensor, keepsTrying: keepsTrying), notices: { relay.send(.text($0)) }, gaps: { relay.send(.gap($0)) },
                configured: { relay.send(.configured(SensorScale(rateHz: $0.rateHz, accelerometerRange: $0.accelerometerRange, gyroscopeRange: $0.gyroscopeRange))) })
            return Made(source: source, finite: false, gyroscopeRange: Float(i2c.gyroscopeRange))
        case .simulated(let simulated):
            guard let family = simulated.chip.chip.family, let model = IMUModel.first(of: family) else {
                throw FallDetectError(.invalidArgument, "a simulated chip must be named", field: "sensor.simulated.chip")
            }
            let motion: any SimulatedMotion
            let clock: any IMUClock = simulated.speed == 1 ? SystemIMUClock() : ScaledIMUClock(speed: simulated.speed)
            var options = options(simulated.chip, sensor, busPath: "simulated-i2c-\(simulated.chip.bus)", keepsTrying: keepsTrying)
            if let path = simulated.motion {
                let recording = try loadRecording(path)
                let recorded = RecordedMotion(recording: recording, loops: simulated.loop)
                motion = recorded
                if simulated.stopAfterMotion { options.endAfterSeconds = recorded.durationSeconds + 2 }
                // The recording's fixes, as its receiver gave them, on the chip's clock.
                if !recording.fixes.isEmpty { RecordedFixPlayer(recording: recording, clock: clock, deliver: fixes).start() }
            } else {
                motion = RestingMotion()
            }
            let address = simulated.chip.address.map(UInt8.init)
            let rateFactor = simulated.rateFactor
            // A fault on purpose, timed from when the daemon starts, on the chip's clock.
            let start = clock.nowNanoseconds()
            let fault: (SimulatedI2CFault, Int64, Int64)? = simulated.fault.map { name in
                (name == "unplug" ? .unplugged : .hungBus, start + Int64(simulated.faultAtSeconds * 1e9),
                 start + Int64((simulated.faultAtSeconds + simulated.faultForSeconds) * 1e9))
            }
            let source = I2CSensorSource(
                options: options, clock: clock,
                openBus: { path throws(I2CError) in
                    let bus = SimulatedI2CBus(name: path, clock: clock)
                    let at = SimulatedIMUBoard.attach(model, to: bus, address: address, motion: motion, rateFactor: rateFactor)
                    if let (kind, from, until) = fault { bus.scheduleFault(kind, at: kind == .hungBus ? nil : at, from: from, until: until) }
                    return bus
                },
                notices: { relay.send(.text($0)) }, gaps: { relay.send(.gap($0)) },
                configured: { relay.send(.configured(SensorScale(rateHz: $0.rateHz, accelerometerRange: $0.accelerometerRange, gyroscopeRange: $0.gyroscopeRange))) })
            return Made(source: source, finite: simulated.stopAfterMotion, gyroscopeRange: Float(simulated.chip.gyroscopeRange))
        }
    }

    /// The driver path's options from `[sensor]` and its chip table. A fixed axis mapping is
    /// applied by the source; `auto` leaves the chip's axes for the pipeline to estimate.
    static func options(_ chip: I2CSensorSettings, _ sensor: SensorSettings, busPath: String? = nil, keepsTrying: Bool = false) -> I2CSensorOptions {
        let axes: AxisMapping = if case .fixed(let mapping) = sensor.axes { mapping } else { .identity }
        return I2CSensorOptions(
            busPath: busPath ?? "/dev/i2c-\(chip.bus)", address: chip.address.map(UInt8.init), family: chip.chip.family,
            request: IMURequest(
                rateHz: sensor.rateHz, accelerometerRange: Float(chip.accelerometerRange), gyroscopeRange: Float(chip.gyroscopeRange),
                lowPassHz: chip.lowPassHz, useFIFO: chip.fifo, watermark: chip.watermark),
            axes: axes, realtimePriority: chip.realtimePriority.map(Int32.init), keepsTrying: keepsTrying)
    }

    static func loadRecording(_ path: String) throws(FallDetectError) -> Recording {
        let catalog = try ReplayCatalog(paths: [path], options: ReplayCatalog.Options())
        guard let entry = catalog.entries.first else { throw FallDetectError(.noData, "no recording", path: path) }
        do {
            return try entry.load().recording
        } catch let error as FallDetectError {
            throw error
        } catch {
            throw FallDetectError(.io, "\(error)", path: path)
        }
    }
}
