/// How much the daemon writes to its log, in swift-log's order: each level includes the ones after it.
enum LogLevel: String, Sendable, Equatable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
}
