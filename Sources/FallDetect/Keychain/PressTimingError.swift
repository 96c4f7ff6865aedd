/// A press timing that cannot work, naming the field.
public enum PressTimingError: Error, Sendable, Equatable, CustomStringConvertible {
    case outOfRange(field: String, value: Double, range: String)
    case debounceNotBelowWindow(debounce: Double, window: Double)

    public var description: String {
        switch self {
        case .outOfRange(let field, let value, let range): "press \(field) \(value) s is outside \(range)"
        case .debounceNotBelowWindow(let debounce, let window): "press debounce \(debounce) s must be shorter than the window \(window) s"
        }
    }
}
