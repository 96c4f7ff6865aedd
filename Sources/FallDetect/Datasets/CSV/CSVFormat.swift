/// How a user's CSV recording is laid out: which column holds what, in which units.
///
/// Columns are named by header text or by 0-based index. Without a time column the rows are taken
/// as evenly spaced at `sampleRate`. Gyroscope columns are optional (angular rate then reads zero).
/// A label column, when named, is read as a number per row beside the samples. Raw sensor counts
/// are described by a scale that multiplies the column's values before the unit's conversion.
public struct CSVFormat: Sendable {
    public enum Column: Sendable, Hashable, CustomStringConvertible {
        case index(Int)
        case name(String)

        /// A number is an index; anything else is a header name.
        public init(_ text: String) {
            if let index = Int(text), index >= 0 { self = .index(index) } else { self = .name(text) }
        }

        public var description: String {
            switch self {
            case .index(let i): "column \(i)"
            case .name(let n): "column \"\(n)\""
            }
        }
    }

    public enum TimeUnit: String, Sendable, CaseIterable {
        case seconds = "s", milliseconds = "ms", microseconds = "us", nanoseconds = "ns"

        var nanoseconds: Double {
            switch self {
            case .seconds: 1e9
            case .milliseconds: 1e6
            case .microseconds: 1e3
            case .nanoseconds: 1
            }
        }
    }

    public enum AccelerationUnit: String, Sendable, CaseIterable {
        case g
        case metersPerSecondSquared = "m/s2"

        var toG: Double { self == .g ? 1 : 1 / 9.80665 }
    }

    public enum AngularRateUnit: String, Sendable, CaseIterable {
        case degreesPerSecond = "deg/s"
        case radiansPerSecond = "rad/s"

        var toDegreesPerSecond: Double { self == .degreesPerSecond ? 1 : 180 / Double.pi }
    }

    /// The field names used in messages and in `--columns`: time, ax, ay, az, gx, gy, gz.
    public static let fieldNames = ["time", "ax", "ay", "az", "gx", "gy", "gz"]

    public var time: Column?
    public var acceleration: (x: Column, y: Column, z: Column)
    public var angularRate: (x: Column, y: Column, z: Column)?
    /// A per-row label (an activity code, a fall flag), read as a number; nil when there is none.
    public var label: Column?
    public var timeUnit: TimeUnit
    public var accelerationUnit: AccelerationUnit
    public var angularRateUnit: AngularRateUnit
    /// Multiplies the acceleration columns before `accelerationUnit` converts them: 1/256 for
    /// an ADXL345's counts at ±16 g, so that the result is in g.
    public var accelerationScale: Double
    /// Multiplies the angular rate columns before `angularRateUnit` converts them.
    public var angularRateScale: Double
    /// Used only when there is no time column.
    public var sampleRate: Double
    public var delimiter: UInt8
    /// Applied to the sensor axes to give body-frame samples.
    public var axisMapping: AxisMapping

    public init(
        time: Column? = .name("time"),
        acceleration: (x: Column, y: Column, z: Column) = (.name("ax"), .name("ay"), .name("az")),
        angularRate: (x: Column, y: Column, z: Column)? = (.name("gx"), .name("gy"), .name("gz")),
        timeUnit: TimeUnit = .seconds,
        accelerationUnit: AccelerationUnit = .g,
        angularRateUnit: AngularRateUnit = .degreesPerSecond,
        sampleRate: Double = 100,
        delimiter: UInt8 = UInt8(ascii: ","),
        axisMapping: AxisMapping = .identity,
        label: Column? = nil,
        accelerationScale: Double = 1,
        angularRateScale: Double = 1
    ) {
        self.time = time
        self.acceleration = acceleration
        self.angularRate = angularRate
        self.timeUnit = timeUnit
        self.accelerationUnit = accelerationUnit
        self.angularRateUnit = angularRateUnit
        self.sampleRate = sampleRate
        self.delimiter = delimiter
        self.axisMapping = axisMapping
        self.label = label
        self.accelerationScale = accelerationScale
        self.angularRateScale = angularRateScale
    }

    /// Reads `time=0,ax=1,ay=2,az=3,gx=4,gy=5,gz=6` (indices or header names; omit `time` for
    /// evenly spaced rows, omit all three g fields when there is no gyroscope).
    public init(columns spec: String) throws(FallDetectError) {
        self.init(time: nil, angularRate: nil)
        var found: [String: Column] = [:]
        for part in spec.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, Self.fieldNames.contains(pieces[0]), !pieces[1].isEmpty else {
                throw FallDetectError(
                    .invalidArgument, "expected FIELD=COLUMN with FIELD one of \(Self.fieldNames.joined(separator: ", ")), got \"\(part)\"",
                    field: "columns")
            }
            found[pieces[0]] = Column(pieces[1])
        }
        guard let ax = found["ax"], let ay = found["ay"], let az = found["az"] else {
            throw FallDetectError(.invalidArgument, "ax, ay and az are required", field: "columns")
        }
        acceleration = (ax, ay, az)
        time = found["time"]
        switch (found["gx"], found["gy"], found["gz"]) {
        case let (x?, y?, z?): angularRate = (x, y, z)
        case (nil, nil, nil): angularRate = nil
        default: throw FallDetectError(.invalidArgument, "give all of gx, gy and gz or none", field: "columns")
        }
    }
}
