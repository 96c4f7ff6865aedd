import ArgumentParser
import FallDetect

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Stream recordings or a dataset through the pipeline.",
        discussion: """
            PATH may be a .detrec recording, a directory of them, a CSV file, a SisFall trial file, or a \
            folder laid out like SisFall (holding SisFall_dataset/, optionally SisFall_enhanced/). \
            Every recording runs through the detectors of --profile (AHRS fusion, then fall, free-fall and \
            crash detection as the profile enables them), and each detection is printed when it happens, \
            with its time in the recording, its confidence and its evidence. After a fall detection the \
            stages the profile asks for follow it and their outcomes are printed too: the stillness \
            confirmation (cycling: lying still 10 s within 60 s) and the recovery check (walking, cycling: \
            sitting or standing again within 10 s means recovered, else stayed down). When the device rests \
            off the body (40 s stiller than breathing leaves a worn one) "not worn" is printed, and "worn \
            again" when it moves; that never withdraws a detection. Per recording a summary gives \
            duration, samples, peak |a| and the number of detections. On a terminal a live progress line is shown. \
            Unreadable rows or blocks are reported with their file and line (or byte offset) and the \
            replay goes on with what could be read.
            """)

    @Argument(help: ArgumentHelp("Recordings, directories or dataset roots.", valueName: "path"))
    var paths: [String]

    @Option(help: "Data seconds per wall-clock second (1 = real time).")
    var speed: Double = 1

    @Flag(help: "Run as fast as possible, without pacing.")
    var fast = false

    @Option(name: .customLong("csv-columns"), help: ArgumentHelp(
        "CSV columns as FIELD=COLUMN pairs, COLUMN a 0-based index or a header name (default: time,ax,ay,az,gx,gy,gz by name).",
        valueName: "spec"))
    var csvColumns: String?

    @Option(name: .customLong("csv-time-unit"), help: "CSV time unit: s, ms, us or ns.")
    var csvTimeUnit: String = "s"

    @Option(name: .customLong("csv-accel-unit"), help: "CSV acceleration unit: g or m/s2.")
    var csvAccelerationUnit: String = "g"

    @Option(name: .customLong("csv-gyro-unit"), help: "CSV angular rate unit: deg/s or rad/s.")
    var csvGyroUnit: String = "deg/s"

    @Option(name: .customLong("csv-rate"), help: "CSV sample rate in Hz (10-10000), used when there is no time column.")
    var csvRate: Double = 100

    @Option(name: .customLong("csv-axes"), help: ArgumentHelp(
        "How the CSV's sensor axes map onto the body frame (x forward, y left, z up), as x=+z,y=-y,z=+x, or auto to estimate up from the wearer's walking (default: they are the body frame).",
        valueName: "mapping"))
    var csvAxes: String?

    @Option(help: ArgumentHelp("Folder for the parsed-dataset cache (default: $XDG_CACHE_HOME/detectord or ~/.cache/detectord).", valueName: "dir"))
    var cache: String?

    @Flag(help: "Print only the final totals.")
    var quiet = false

    @Option(help: ArgumentHelp("Detector profile: walking, cycling, motorcycling or car.", valueName: "name"))
    var profile: String = "walking"

    @Option(help: ArgumentHelp("low, standard or high.", valueName: "preset"))
    var sensitivity: String = "standard"

    @Option(name: .customLong("fall-detector"), help: ArgumentHelp("learned or multiphase (default: the profile's).", valueName: "name"))
    var fallDetector: String?

    @Flag(name: .customLong("no-detect"), help: "Decode only; run no detectors.")
    var noDetect = false

    @Option(help: ArgumentHelp(
        "Also write every fall candidate (each impact the tracker measured, detected or not) to FILE as JSON lines: recording, time, "
            + "the measurements the judges read, and both judges' scores.",
        valueName: "file"))
    var candidates: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one path") }
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
        _ = try csvFormat()
        _ = try detectionProfile()
    }

    func detectionProfile() throws -> DetectionProfile {
        guard var chosen = DetectionProfile.named(profile) else {
            throw ValidationError("--profile must be one of \(DetectionProfile.all.map(\.name).joined(separator: ", ")), got '\(profile)'")
        }
        guard let preset = DetectionSensitivity(rawValue: sensitivity) else {
            throw ValidationError("--sensitivity must be low, standard or high, got '\(sensitivity)'")
        }
        if let fallDetector {
            guard let judge = FallJudgeChoice(rawValue: fallDetector) else {
                throw ValidationError("--fall-detector must be learned or multiphase, got '\(fallDetector)'")
            }
            chosen.fall = judge
        }
        return chosen.with(sensitivity: preset)
    }

    func csvFormat() throws -> CSVFormat {
        var format = CSVFormat()
        if let csvColumns {
            do { format = try CSVFormat(columns: csvColumns) } catch { throw ValidationError("--csv-columns: \(error.message)") }
        }
        guard let time = CSVFormat.TimeUnit(rawValue: csvTimeUnit) else { throw ValidationError("--csv-time-unit must be s, ms, us or ns") }
        guard let accel = CSVFormat.AccelerationUnit(rawValue: csvAccelerationUnit) else { throw ValidationError("--csv-accel-unit must be g or m/s2") }
        guard let gyro = CSVFormat.AngularRateUnit(rawValue: csvGyroUnit) else { throw ValidationError("--csv-gyro-unit must be deg/s or rad/s") }
        // Anything else is a mistyped option, and its period would not fit the times.
        guard SensorInfo.plausibleSampleRates.contains(csvRate) else { throw ValidationError("--csv-rate must lie in 10...10000 Hz") }
        format.timeUnit = time
        format.accelerationUnit = accel
        format.angularRateUnit = gyro
        format.sampleRate = csvRate
        format.axisMapping = try csvAxisChoice().mapping
        return format
    }

    func csvAxisChoice() throws -> AxisChoice {
        guard let csvAxes else { return .fixed(.identity) }
        guard let choice = AxisChoice(csvAxes) else {
            throw ValidationError("--csv-axes must be auto or map x, y and z each onto a different signed sensor axis, as x=+z,y=-y,z=+x; got '\(csvAxes)'")
        }
        return choice
    }

    func run() async throws {
        let out = Terminal.standardOutput
        let err = Terminal.standardError
        let live = out.isInteractive && !quiet
        let catalog: ReplayCatalog
        do {
            catalog = try ReplayCatalog(paths: paths, options: .init(csvFormat: csvFormat(), cacheDirectory: cache ?? ReplayCatalog.defaultCacheDirectory()))
        } catch let error as FallDetectError {
            err.write("detectord replay: \(error)\n")
            throw ExitCode(66)
        }
        for notice in catalog.notices { err.write("note: \(notice)\n") }

        var candidateLog: CandidateLog?
        if let candidates {
            do {
                candidateLog = try CandidateLog(path: candidates)
            } catch {
                err.write("detectord replay: \(error)\n")
                throw ExitCode(73)
            }
        }
        let runner = ReplayRunner(speed: fast ? .asFastAsPossible : (speed == 1 ? .realTime : .scaled(speed)), clock: ContinuousClock())
        var total = ReplayStatistics()
        var dataSeconds = 0.0
        var replayed = 0
        var failed = 0
        let clock = ContinuousClock()
        let started = clock.now

        for entry in catalog.entries {
            let loaded: LoadedRecording
            do {
                loaded = try entry.load()
            } catch {
                failed += 1
                err.write("error: \(error)\n")
                continue
            }
            for problem in loaded.problems { err.write("warning: \(problem)\n") }
            for note in loaded.notes { err.write("note: \(note)\n") }
            var pipeline: DetectionPipeline?
            if !noDetect {
                let sensor = loaded.recording.info.sensor
                do {
                    pipeline = try DetectionPipeline(
                        profile: detectionProfile(), sampleRate: Float(sensor.sampleRate), accelerometerRange: sensor.accelerometerRange,
                        gyroscopeRange: sensor.gyroscopeRange)
                    // Only a CSV is in its sensor's frame; the other kinds are body-frame already.
                    if entry.name.lowercased().hasSuffix(".csv") {
                        pipeline?.mounting = try csvAxisChoice().estimator(sampleRate: Float(sensor.sampleRate))
                    }
                } catch let error as FallDetectError {
                    // The file, not the title: the title is what the file says, the path is where to look.
                    err.write("error: \(entry.path): \(error)\n")
                    failed += 1
                    continue
                }
            }
            let origin = loaded.recording.samples.first?.timestampNanoseconds ?? 0
            let title = loaded.recording.info.title
            let stats = try await runner.run(loaded.recording, detecting: &pipeline) { event in
                if live { out.write("\r\u{1B}[2K") }
                out.write("\(title): \(ProgressLine.fixed(Double(event.timestampNanoseconds - origin) / 1e9, 2)) s  \(event.summary)\n")
            } followUp: { outcome in
                if live { out.write("\r\u{1B}[2K") }
                out.write(
                    "\(title): \(ProgressLine.fixed(Double(outcome.timestampNanoseconds - origin) / 1e9, 2)) s  \(outcome.summary(origin: origin))\n")
            } wear: { change in
                if live { out.write("\r\u{1B}[2K") }
                let at = ProgressLine.fixed(Double(change.timestampNanoseconds - origin) / 1e9, 2)
                let since = ProgressLine.fixed(Double(change.sinceNanoseconds - origin) / 1e9, 1)
                out.write(change.isWorn ? "\(title): \(at) s  worn again\n" : "\(title): \(at) s  not worn: resting off the body since \(since) s\n")
            } progress: { progress in
                if progress.isFinished {
                    if live { out.write("\r\u{1B}[2K") }
                    if !quiet { out.write(ProgressLine.summary(progress) + "\n") }
                } else if live {
                    out.write("\r\u{1B}[2K" + ProgressLine.live(progress))
                }
            }
            if let episodes = pipeline?.suspectGyroscopeEpisodes, episodes > 0 {
                err.write(
                    "warning: \(title): the gyroscope reported turns no body makes (a mean |ω| over \(Int(GyroscopeGuard().implausibleRate)) °/s) "
                        + "\(episodes) time\(episodes == 1 ? "" : "s"); tilt followed the accelerometer meanwhile. Check the sensor and its mount.\n")
            }
            if let candidateLog {
                let chosen = try detectionProfile()
                do {
                    try candidateLog.write(loaded.recording, profile: chosen)
                } catch {
                    err.write("error: \(title): \(error)\n")
                }
            }
            total.merge(stats)
            dataSeconds += stats.durationSeconds
            replayed += 1
        }

        let wall = started.duration(to: clock.now)
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        var line = "\(replayed) recording\(replayed == 1 ? "" : "s"), \(ProgressLine.fixed(dataSeconds, 1)) s of data, "
            + "\(total.samples) samples in \(ProgressLine.fixed(wallSeconds, 2)) s "
            + "(\(ProgressLine.rate(wallSeconds > 0 ? Double(total.samples) / wallSeconds : 0)) samples/s, "
            + "\(ProgressLine.fixed(wallSeconds > 0 ? dataSeconds / wallSeconds : 0, 1))x), "
            + "peak |a| \(ProgressLine.fixed(Double(total.peakAcceleration), 2)) g"
        if !noDetect { line += ", \(total.detections) detection\(total.detections == 1 ? "" : "s") (profile \(profile))" }
        if failed > 0 { line += ", \(failed) unreadable" }
        out.write(line + "\n")
        if replayed == 0 { throw ExitCode(1) }
    }
}
