/// Which channels' messages one dispatcher sends. The daemon runs a dispatcher per lane, so that a
/// channel that takes long to answer (a webhook receiver that hangs until its timeout, a modem
/// waiting a minute for the network) holds back only its own messages: an SMS alert never waits
/// for a webhook, nor the other way round. Within a lane messages still go one at a time, which a
/// modem needs. The drill sends everything from one lane, in one order, so that its output stays
/// the same from run to run.
public enum OutboxLane: Sendable, Hashable, CustomStringConvertible {
    /// Every channel.
    case all
    /// The channel of this name.
    case channel(String)
    /// Every channel not named here: the local log's console, and the messages to a channel that
    /// is not configured, which the dispatcher abandons, saying so.
    case allExcept(Set<String>)

    public func contains(_ channel: String) -> Bool {
        switch self {
        case .all: true
        case .channel(let name): name == channel
        case .allExcept(let names): !names.contains(channel)
        }
    }

    /// One lane per channel that reaches someone, and one for the rest: the console (which only
    /// writes the local log) and any name no channel answers to. Each lane is a task making
    /// blocking SQLite calls on the cooperative pool, so there are no more of them than that.
    public static func lanes(for channels: some Collection<String>) -> [OutboxLane] {
        let remote = Set(channels).subtracting([WorkflowTransaction.localLog.channel])
        return remote.sorted().map { .channel($0) } + [.allExcept(remote)]
    }

    public var description: String {
        switch self {
        case .all: "all channels"
        case .channel(let name): "the \(name) channel"
        case .allExcept(let names): "channels other than \(names.sorted().joined(separator: ", "))"
        }
    }
}
