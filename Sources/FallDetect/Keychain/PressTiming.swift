/// How button notifications are grouped into presses and patterns (hardware.md §5.4: collapse
/// notifications under ~150 ms, count presses in a sliding window, as itracing2 does).
public struct PressTiming: Sendable, Equatable, Codable {
    /// Notifications closer than this to the last accepted one are the same press: contact bounce,
    /// or firmware repeating one press's notification.
    public var debounce: Double = 0.15
    /// A press counts towards a pattern when it follows the previous one within this time.
    public var window: Double = 0.6

    public init(debounce: Double = 0.15, window: Double = 0.6) {
        self.debounce = debounce
        self.window = window
    }

    /// Checks the ranges; the error names the field.
    public func validated() throws(PressTimingError) -> PressTiming {
        guard debounce.isFinite, (0.02...1).contains(debounce) else { throw .outOfRange(field: "debounce", value: debounce, range: "0.02 to 1 s") }
        guard window.isFinite, (0.2...3).contains(window) else { throw .outOfRange(field: "window", value: window, range: "0.2 to 3 s") }
        guard debounce < window else { throw .debounceNotBelowWindow(debounce: debounce, window: window) }
        return self
    }
}
