import Synchronization
import Testing

@testable import FallDetect

@Suite struct ConcurrentIndicesTests {
    @Test(arguments: [nil, 1, 2, 7] as [Int?])
    func mapRunsEveryIndexOnceAndKeepsTheirOrder(workers: Int?) {
        let runs = Mutex<[Int]>([])
        let squares = ConcurrentIndices.map(count: 1000, workers: workers) { i in
            runs.withLock { $0.append(i) }
            return i * i
        }
        #expect(squares == (0..<1000).map { $0 * $0 })
        #expect(runs.withLock { $0.sorted() } == Array(0..<1000))
    }

    @Test func nothingToDoRunsNothing() {
        let ran = Atomic<Int>(0)
        #expect(ConcurrentIndices.map(count: 0, workers: 4) { _ in ran.add(1, ordering: .relaxed) }.isEmpty)
        #expect(ran.load(ordering: .relaxed) == 0)
    }
}
