import Testing

@testable import FallDetect

@Suite struct ParallelMapTests {
    @Test func resultsComeInIndexOrder() throws {
        // Uneven work, so tasks finish out of order.
        let squares = try parallelMap(40) { k throws(FallDetectError) -> Int in
            var x = 0
            for i in 0..<((40 - k) * 10_000) { x &+= i & 1 }
            return k * k + (x & 0)
        }
        #expect(squares == (0..<40).map { $0 * $0 })
        #expect(try parallelMap(0) { k throws(FallDetectError) in k }.isEmpty)
    }

    @Test func theLowestIndexErrorIsThrown() {
        let error = #expect(throws: FallDetectError.self) {
            try parallelMap(8) { k throws(FallDetectError) -> Int in
                if k == 3 || k == 6 { throw FallDetectError(.invalidArgument, "fold \(k)", field: "fold\(k)") }
                return k
            }
        }
        #expect(error?.field == "fold3")
    }
}
