import Dispatch
import Synchronization

/// Maps `0..<count` through `body` on every core, results in index order: cross-validation folds
/// are independent, and training one is seconds of work. The lowest index's error is thrown.
func parallelMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws(FallDetectError) -> T) throws(FallDetectError) -> [T] {
    let results = Mutex<[Result<T, FallDetectError>?]>(Array(repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { k in
        let result = Result { () throws(FallDetectError) -> T in try body(k) }
        results.withLock { $0[k] = result }
    }
    return try results.withLock { $0 }.map { slot throws(FallDetectError) -> T in
        guard let slot else { throw FallDetectError(.noData, "a parallel task left no result", field: "folds") }
        return try slot.get()
    }
}
