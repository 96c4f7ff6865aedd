extension WorkflowTransaction {
    /// A condition that holds from a moment on and is told once per episode: the device off the
    /// body, the sensor faulty, the keychain out of reach. Kept as `<name>Since` and `<name>Told`
    /// settings, so a restart remembers since when and whether anyone was told. When it ends, its
    /// `kind` of message still waiting (a phone off, a channel down) is given up: it would tell of
    /// a fault that is over, with a time that is not the fault's.
    func recordCondition(_ name: String, _ kind: MessageKind, holds: Bool, since: Int64, at now: Int64,
                         began: (type: String, payload: String), ended: (type: String, payload: String)) throws {
        let started = try conditionSince(name) != nil
        if holds {
            guard !started else { return }
            try setSetting("\(name)Since", since)
            try note(began.type, began.payload, at: now)
        } else {
            guard started else { return }
            try db.execute(sql: "DELETE FROM setting WHERE key IN (?, ?)", arguments: ["\(name)Since", "\(name)Told"])
            try note(ended.type, ended.payload, at: now)
            for message in try waiting() where message.kind == kind.rawValue {
                try abandon(message, reason: "over before it went (\(ended.type))", at: now)
            }
        }
    }

    func conditionSince(_ name: String) throws -> Int64? { try setting("\(name)Since", as: Int64.self) }

    /// Queues `kind` once per episode of the condition, when it has lasted `afterSeconds`.
    func remindCondition(_ name: String, _ kind: MessageKind, afterSeconds: Double, at now: Int64) throws -> Bool {
        guard let since = try conditionSince(name), try setting("\(name)Told", as: Bool.self) != true,
              Double(now &- since) >= afterSeconds * 1e9
        else { return false }
        try setSetting("\(name)Told", true)
        try enqueue(kind, at: now)
        return true
    }
}
