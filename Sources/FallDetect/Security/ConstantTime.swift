/// Comparisons of secrets (PIN hashes, login token hashes) whose time does not depend on where
/// the first difference is, so timing tells an attacker nothing about how close a guess came.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes; only the lengths may leak, and they are public.
    public static func equal(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
