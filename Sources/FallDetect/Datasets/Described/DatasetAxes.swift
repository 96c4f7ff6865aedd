/// How a dataset's sensor axes sit on the body.
public enum DatasetAxes: Sendable, Hashable {
    /// A fixed mapping, `x=+z,y=-y,z=+x`.
    case mapping(AxisMapping)
    /// Estimated from the data (any mounting). Accepted in a description so that one written
    /// for it keeps its meaning; loading refuses it until the estimation is in `AxisMapping`.
    case auto
}
