import Testing

@testable import FallDetect

@Suite struct OnlineTrialTests {
    static func trial(_ name: String, span: ClosedRange<Int64>?) throws -> OnlineTrial {
        OnlineTrial(name: try SisFallTrialName(parsing: name), samples: 2400, seconds: 12, fallSpan: span, candidates: [])
    }

    @Test func fallSpanRunsFromTheFirstToTheLastSampleLabelledTwo() {
        let labels: [UInt8] = [0, 0, 1, 2, 2, 1, 2, 0, 0]
        let span = OnlineTrial.fallSpan(labels: labels, samplePeriodNanoseconds: 5_000_000)
        #expect(span == 15_000_000...30_000_000)  // samples 3 and 6
        #expect(OnlineTrial.fallSpan(labels: [0, 2, 0], samplePeriodNanoseconds: 5_000_000) == 5_000_000...5_000_000)
    }

    @Test func noFallLabelMeansNoSpan() {
        #expect(OnlineTrial.fallSpan(labels: [0, 1, 1, 0], samplePeriodNanoseconds: 5_000_000) == nil)
        #expect(OnlineTrial.fallSpan(labels: [], samplePeriodNanoseconds: 5_000_000) == nil)
        #expect(OnlineTrial.fallSpan(labels: nil, samplePeriodNanoseconds: 5_000_000) == nil)
    }

    @Test func windowIsTheSpanPlusTheTolerance() throws {
        let s: Int64 = 1_000_000_000
        let t = try Self.trial("F03_SA02_R01", span: (10 * s)...(11 * s))
        #expect(!t.isInFallWindow(10 * s - 1, tolerance: 2))
        #expect(t.isInFallWindow(10 * s, tolerance: 2))
        #expect(t.isInFallWindow(11 * s, tolerance: 2))
        #expect(t.isInFallWindow(13 * s, tolerance: 2))
        #expect(!t.isInFallWindow(13 * s + 1, tolerance: 2))
        #expect(t.isInFallWindow(11 * s + s / 2, tolerance: 0.5))
        #expect(!t.isInFallWindow(11 * s + s / 2 + 1, tolerance: 0.5))
        #expect(!t.isInFallWindow(11 * s + 1, tolerance: 0))
    }

    @Test func adlTrialsAndUnlabelledFallsHaveNoWindow() throws {
        let s: Int64 = 1_000_000_000
        // Even with a span given by mistake, an ADL trial never detects a fall.
        #expect(try !Self.trial("D05_SA02_R01", span: (10 * s)...(11 * s)).isInFallWindow(10 * s, tolerance: 2))
        #expect(try !Self.trial("F05_SA02_R01", span: nil).isInFallWindow(10 * s, tolerance: 2))
    }
}
