import DeviceLink
import FallDetect
import Foundation

/// Delivers a recording's GNSS fixes at their times on a clock, from when it starts: the
/// receiver's side of a simulated chip measuring that recording, so the demo ride has its
/// speed and position as a replay does.
struct RecordedFixPlayer: Sendable {
    let fixes: [GNSSFix]
    let origin: Int64
    let clock: any IMUClock
    let deliver: @Sendable (GNSSFix) -> Void

    init(recording: Recording, clock: any IMUClock, deliver: @escaping @Sendable (GNSSFix) -> Void) {
        fixes = recording.fixes
        origin = recording.samples.first?.timestampNanoseconds ?? recording.fixes.first?.timestampNanoseconds ?? 0
        self.clock = clock
        self.deliver = deliver
    }

    func start() {
        let player = self
        let thread = Thread {
            let start = player.clock.nowNanoseconds()
            for var fix in player.fixes {
                // Saturating: a corrupt recording's fix may be stamped anywhere.
                let due = ReplaySensorSource.moved(fix.timestampNanoseconds, from: player.origin, to: start)
                let (wait, overflow) = due.subtractingReportingOverflow(player.clock.nowNanoseconds())
                if !overflow, wait > 0 { player.clock.sleep(nanoseconds: wait) }
                fix.timestampNanoseconds = due
                player.deliver(fix)
            }
        }
        thread.name = "fix-player"
        thread.start()
    }
}
