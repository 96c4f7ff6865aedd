import Foundation

/// Which boot of the machine this is: the kernel's random `boot_id`, new at every boot. A time
/// recorded on the wall clock belongs to that boot's clock, which a Pi without a battery-backed
/// clock starts on fake-hwclock's time and NTP may step later; times from another boot were on
/// another clock. Where the kernel does not say, each process counts as a boot of its own.
public enum BootIdentity {
    public static let current: String = {
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        return "process-" + UUID().uuidString
    }()
}
