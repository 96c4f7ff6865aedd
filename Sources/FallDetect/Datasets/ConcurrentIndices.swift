import Dispatch
import Foundation
import Synchronization

/// Work over the indices 0..<count on up to `workers` threads (default: one per core). Each thread
/// takes the next index from a shared counter, so long and short items balance out.
enum ConcurrentIndices {
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    static func forEach(count: Int, workers: Int?, _ body: @Sendable (Int) -> Void) {
        let threads = max(1, min(workers ?? processorCount, count))
        if threads == 1 {
            for i in 0..<count { body(i) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= count { return }
                body(i)
            }
        }
    }

    /// `body` of every index, in index order.
    static func map<T: Sendable>(count: Int, workers: Int?, _ body: @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[Int: T]>([:])
        forEach(count: count, workers: workers) { i in
            let value = body(i)
            results.withLock { $0[i] = value }
        }
        return results.withLock { collected in (0..<count).compactMap { collected[$0] } }
    }
}
