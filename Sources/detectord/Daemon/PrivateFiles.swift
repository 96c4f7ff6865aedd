#if canImport(Glibc)
import Glibc
#endif

/// Files with personal data are readable by the service user only. The unit sets `UMask=0077`
/// too; this holds when the daemon is started some other way.
enum PrivateFiles {
    static func restrict() {
        umask(0o077)
    }
}
