import Testing
@testable import FallDetect

@Suite struct PressClassifierTests {
    static let ms: Int64 = 1_000_000
    let timing = PressTiming(debounce: 0.15, window: 0.6)

    /// Feeds presses at the given milliseconds, polling at each deadline in between, and returns
    /// the patterns decided in order.
    func run(_ times: [Int64], atOnce: Bool = false, until end: Int64 = 10_000) -> [KeychainPress] {
        var classifier = PressClassifier(timing: timing, decidesSingleAtOnce: atOnce)
        var out: [KeychainPress] = []
        for t in times {
            while let deadline = classifier.deadline, deadline < t * Self.ms {
                if let p = classifier.poll(now: deadline) { out.append(p) }
                if classifier.deadline == deadline { break }
            }
            if let p = classifier.press(at: t * Self.ms) { out.append(p) }
        }
        if let p = classifier.poll(now: end * Self.ms) { out.append(p) }
        return out
    }

    @Test func eachPatternIsToldApart() {
        #expect(run([0]) == [.single])
        #expect(run([0, 300]) == [.double])
        #expect(run([0, 300, 600]) == [.triple])
        #expect(run([0, 2000, 2300, 5000, 5200, 5400]) == [.single, .double, .triple])
    }

    @Test func bounceAndRepeatedNotificationsAreOnePress() {
        #expect(run([0, 50, 100]) == [.single], "within the 150 ms debounce")
        #expect(run([0, 149, 300, 310]) == [.double])
    }

    @Test func theWindowEdgeDecides() {
        #expect(run([0, 600]) == [.double], "exactly at the window still counts")
        #expect(run([0, 601]) == [.single, .single], "just after it starts afresh")
    }

    /// The timer that polls came late (a busy loop) and the next press came first: the pattern
    /// whose window closed is decided by that press, not dropped with it.
    @Test func aPressAfterAnUnpolledWindowDecidesThePatternItClosed() {
        var classifier = PressClassifier(timing: timing)
        #expect(classifier.press(at: 0) == nil)
        #expect(classifier.press(at: 200 * Self.ms) == nil)
        #expect(classifier.press(at: 1500 * Self.ms) == .double, "the double before it")
        #expect(classifier.poll(now: 3000 * Self.ms) == .single, "and then this press's own")
    }

    @Test func aFourthPressOfABurstIsNotAnotherPattern() {
        #expect(run([0, 200, 400, 600, 800]) == [.triple])
        #expect(run([0, 200, 400, 600, 2000]) == [.triple, .single], "a press after a quiet window counts again")
    }

    @Test func theTripleIsDecidedAtTheThirdPress() {
        var classifier = PressClassifier(timing: timing)
        #expect(classifier.press(at: 0) == nil)
        #expect(classifier.press(at: 200 * Self.ms) == nil)
        #expect(classifier.deadline == 800 * Self.ms)
        #expect(classifier.poll(now: 799 * Self.ms) == nil)
        #expect(classifier.press(at: 400 * Self.ms) == .triple)
    }

    @Test func aSingleIsDecidedAtOnceWhenNothingLongerMeansAnything() {
        var classifier = PressClassifier(timing: timing, decidesSingleAtOnce: true)
        #expect(classifier.press(at: 0) == .single)
        #expect(classifier.press(at: 300 * Self.ms) == nil, "the rest of a burst is one press")
        #expect(classifier.poll(now: 2000 * Self.ms) == nil)
        #expect(classifier.press(at: 3000 * Self.ms) == .single)
    }

    @Test func aPatternOpenWhenTheLinkDropsIsALongPressNotAPress() {
        var classifier = PressClassifier(timing: timing)
        _ = classifier.press(at: 0)
        _ = classifier.press(at: 200 * Self.ms)
        #expect(classifier.flush() == 2)
        #expect(classifier.deadline == nil)
        #expect(classifier.poll(now: 5000 * Self.ms) == nil, "nothing is decided later either")
        #expect(classifier.flush() == 0)
        #expect(classifier.press(at: 250 * Self.ms) == nil, "after a drop the next press starts afresh")
        #expect(classifier.poll(now: 900 * Self.ms) == .single)
    }

    @Test func timingIsValidatedNamingTheField() {
        #expect(throws: PressTimingError.outOfRange(field: "debounce", value: 0.01, range: "0.02 to 1 s")) {
            try PressTiming(debounce: 0.01, window: 0.6).validated()
        }
        #expect(throws: PressTimingError.outOfRange(field: "window", value: 5, range: "0.2 to 3 s")) {
            try PressTiming(debounce: 0.1, window: 5).validated()
        }
        #expect(throws: PressTimingError.debounceNotBelowWindow(debounce: 0.5, window: 0.4)) {
            try PressTiming(debounce: 0.5, window: 0.4).validated()
        }
        #expect(throws: PressTimingError.self) { try PressTiming(debounce: .nan, window: 0.6).validated() }
        #expect((try? PressTiming().validated()) == PressTiming())
    }
}
