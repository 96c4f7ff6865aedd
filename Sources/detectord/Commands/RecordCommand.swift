import ArgumentParser
import DeviceLink
import FallDetect
import Foundation
import Synchronization

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the live sensors (and GNSS fixes) to a .detrec file.",
        discussion: """
            Reads the [sensor] and [gnss] tables of the configuration FILE and writes what they \
            deliver to OUT in the project's recording format (Datasets/FORMAT.md, checksummed \
            blocks), until --seconds have passed or SIGINT/SIGTERM. Gaps in the stream (a FIFO \
            overflow, an unplugged chip) are recorded as gap events with their length; nothing is \
            stitched. Replay the file through the detectors with `detectord replay OUT` (bench reads \
            only SisFall, HAPT or described CSV folders, not .detrec). \
            To record while the daemon runs, use `detectord run --record OUT`.
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String = "/etc/detectord/detectord.toml"

    @Option(name: .shortAndLong, help: ArgumentHelp("The recording to write (.detrec).", valueName: "path"))
    var out: String

    @Option(help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Option(help: "A title kept in the recording's header.")
    var title: String = "live recording"

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
    }

    func run() throws {
        // The database and recordings hold a person's name, contacts, positions and movements:
        // whatever this process creates is its user's alone (0600 files, 0700 folders).
        PrivateFiles.restrict()
        let settings: DaemonConfiguration
        do {
            settings = try DaemonConfiguration.load(path: config)
        } catch {
            for issue in error.issues { Terminal.standardError.write("\(issue)\n") }
            throw ExitCode(65)
        }
        let err = Terminal.standardError
        let stop = OnceFlag()
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { stop.raise() }
            source.resume()
            return source
        }
        defer { for source in signals { source.cancel() } }

        let relay = SensorNoticeRelay()
        let made: SensorSourceFactory.Made
        let pendingFixes = Mutex<[GNSSFix]>([])
        do {
            made = try SensorSourceFactory.make(settings.sensor, relay: relay, fixes: { fix in pendingFixes.withLock { $0.append(fix) } })
        } catch {
            err.write("detectord record: \(error)\n")
            throw ExitCode(70)
        }
        let source = made.source
        let recorder: SensorRecorder
        do {
            recorder = try SensorRecorder(path: out, info: SensorRecorder.info(source: source, gyroscopeRange: made.gyroscopeRange, title: title))
        } catch {
            err.write("detectord record: \(error)\n")
            throw ExitCode(73)
        }
        relay.attach { notice in
            switch notice {
            case .text(let text): err.write("record: \(text)\n")
            case .gap(let gap): recorder.append(gap)
            case .configured(let chip): recorder.chipConfigured(chip)
            }
        }
        var gps: GPSDClient?
        if case .gpsd(let host, let port) = settings.gnss {
            let client = GPSDClient(configuration: .init(host: host, port: String(port)))
            client.start()
            Task.detached { for await fix in client.fixes { recorder.append(fix) } }
            gps = client
        }
        let outcome = SensorThread.run(source, stop: stop, seconds: seconds) { batch in
            for fix in pendingFixes.withLock({ f in defer { f.removeAll() }; return f }) { recorder.append(fix) }
            recorder.append(batch)
        }
        gps?.stop()
        relay.flush()  // a gap at the very end goes into the file too
        let totals: SensorRecorder.Totals
        do {
            totals = try recorder.close()
        } catch {
            err.write("detectord record: \(error)\n")
            throw ExitCode(74)
        }
        err.write("record: \(out): \(totals.samples) samples, \(totals.fixes) fixes, \(totals.events) events"
                  + (totals.droppedSamples > 0 ? ", \(totals.droppedSamples) samples dropped (disk too slow)" : "") + "\n")
        if case .failure(let error) = outcome {
            err.write("detectord record: \(error)\n")
            throw ExitCode(70)
        }
    }
}
