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

    /// The latest a fix is played after the recording's start: a year.
    static let longest: Int64 = 366 * 86_400 * 1_000_000_000

    func start() {
        let player = self
        let thread = Thread {
            let start = player.clock.nowNanoseconds()
            for var fix in player.fixes {
                // A corrupt recording's fix may be stamped anywhere: one before the recording's
                // start, or too far after it to be reached, is left out (its age would overflow
                // whatever measures it).
                let (offset, overflow) = fix.timestampNanoseconds.subtractingReportingOverflow(player.origin)
                guard !overflow, offset >= 0, offset <= Self.longest else { continue }
                let due = start + offset
                // In slices: a slowed clock scales each sleep, which must not overflow either.
                var wait = due - player.clock.nowNanoseconds()
                while wait > 0 {
                    player.clock.sleep(nanoseconds: min(wait, 1_000_000_000))
                    wait = due - player.clock.nowNanoseconds()
                }
                fix.timestampNanoseconds = due
                player.deliver(fix)
            }
        }
        thread.name = "fix-player"
        thread.start()
    }
}
