import GRDB

extension WorkflowTransaction {
    /// The Settings' PIN lockout, apart from disarming's (`pinLock`).
    static let setupPINLock = "setupPinLock"
    /// The Settings' longest lockout, seconds: a day, where disarming's is an hour. Nothing in
    /// Settings is urgent, and each lockout's cap sets how fast the PIN can be guessed through it
    /// (a four-digit PIN at one guess an hour falls in about 200 days on average).
    static let setupMaximumLockout = 86_400.0

    /// Set in a copy in memory of a database file that could not be read (`WorkflowStore.inMemoryCopy`):
    /// the PIN the file may hold is unknown, so set-up without one is closed. Else anyone who
    /// reaches the page (any local process) could change who is told, without the PIN.
    static let unreadFileKey = "databaseFileUnread"

    /// Set-up is complete once a PIN is set: from then on every change needs it.
    public func isSetUp() throws -> Bool { try setting("pinHash", as: String.self) != nil }

    /// The page's choice of profile and sensitivity, nil until one is made.
    public func detectorChoice() throws -> DetectorChoice? { try setting("detectorChoice", as: DetectorChoice.self) }

    /// Makes `change` when `pin` allows it: no PIN is needed before set-up is complete, the PIN
    /// (never the duress PIN) after, under a lockout of its own: wrong tries in Settings (a page
    /// left open, anyone with the login, a local process) must not hold the wearer's disarming of
    /// a real alarm behind an hour's lockout. A wrong try returns rather than throws, so the count
    /// it adds is committed; a change the rules refuse (a sixth contact, a number given twice)
    /// throws, naming the field.
    public func setUp(_ change: SetupChange, pin: String?, at now: Int64) throws -> SetupOutcome {
        if let hash = try setting("pinHash", as: String.self) {
            guard let pin else { return .pinNeeded }
            var lock = try setting(Self.setupPINLock, as: PINLock.self) ?? PINLock()
            lock.maximumLockout = Self.setupMaximumLockout // a lock stored before the cap was a day keeps its count
            let outcome = lock.check(pin, pinHash: hash, duressHash: nil, at: now)
            try setSetting(Self.setupPINLock, lock)
            switch outcome {
            case .verdict(.correct): break
            case .verdict: return .wrongPIN
            case .lockedOut(let seconds): return .lockedOut(seconds: seconds)
            }
        } else if try setting(Self.unreadFileKey, as: Bool.self) == true {
            throw FallDetectError(
                .io, "the database file could not be read, so the PIN it may hold cannot be checked: set-up is closed until the file can be read and the daemon is restarted")
        }
        return .done(try make(change, at: now))
    }

    /// Throws unless `outcome` is `.done`: for callers that treat a refused PIN as an error.
    static func require(_ outcome: SetupOutcome) throws {
        switch outcome {
        case .done: return
        case .pinNeeded: throw FallDetectError(.invalidArgument, "this change needs the PIN", field: "pin")
        case .wrongPIN: throw FallDetectError(.invalidArgument, "wrong PIN", field: "pin")
        case .lockedOut(let seconds):
            throw FallDetectError(.invalidArgument, "PIN entry locked for \(Int(seconds.rounded(.up))) s", field: "pin")
        }
    }

    private func make(_ change: SetupChange, at now: Int64) throws -> [WorkflowAction] {
        switch change {
        case .person(let person, let gnssConfigured):
            guard try workflow().state == .noEmergency else {
                throw FallDetectError(.invalidArgument, "the wearer's details cannot change during an emergency", field: "person")
            }
            try note("setup", "person", at: now)
            return try apply(.startProtection(person, gnssConfigured: gnssConfigured, hasFix: try lastPosition() != nil), at: now)
        case .pin(let pin):
            // A PIN that is also the duress PIN would always disarm for real (the PIN is checked
            // first): the duress PIN would stop working without anyone knowing.
            if let duress = try setting("duressHash", as: String.self), PINHasher.verify(pin, against: duress) {
                throw FallDetectError(.invalidArgument, "this is the duress PIN; choose another PIN", field: "new_pin")
            }
            try setSetting("pinHash", try PINHasher.hash(pin))
            try setSetting("pinLock", PINLock())
            try setSetting(Self.setupPINLock, PINLock())
            try note("setup", "pin", at: now)
            return []
        case .saveContact(let contact, let replacing, let limit):
            try requireNoEmergency()
            try save(contact, replacing: replacing, limit: limit)
            try note("setup", "contact saved", at: now)
            return []
        case .removeContact(let phone):
            try requireNoEmergency()
            try db.execute(sql: "DELETE FROM contact WHERE phone = ?", arguments: [phone.e164])
            guard db.changesCount > 0 else { throw FallDetectError(.invalidArgument, "no contact has the number \(phone.e164)", field: "phone") }
            try note("setup", "contact removed", at: now)
            return []
        case .detector(let choice):
            try setSetting("detectorChoice", choice)
            try note("setup", "detector \(choice.profile) \(choice.sensitivity)", at: now)
            return []
        case .testAlarm:
            guard try !contacts().isEmpty else {
                throw FallDetectError(.invalidArgument, "add a contact first: a test alarm is sent to every contact", field: "contact")
            }
            return try apply(.testAlarm, at: now)
        case .unlock:
            return []
        }
    }

    /// Who is told is fixed while an emergency lasts: a contact removed or renumbered in the
    /// middle of one would get no more location updates and no all clear.
    /// Once it has ended (EMERGENCY_ENDED, whose survey may never be answered) they may change:
    /// tracking is over, and the all clear still reaches whoever was told. Under the duress PIN
    /// the refusal must not say why.
    private func requireNoEmergency() throws {
        let machine = try workflow()
        guard machine.state != .noEmergency, machine.state != .emergencyEnded else { return }
        let reason = machine.underDuress
            ? "the contacts cannot be changed now; try again later"
            : "the contacts cannot change during an emergency: whoever was told must hear that it is over"
        throw FallDetectError(.invalidArgument, reason, field: "contact")
    }

    /// One number per contact, at most `limit` of them; editing keeps the contact's place.
    private func save(_ contact: Contact, replacing: PhoneNumber?, limit: Int) throws {
        let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM contact WHERE phone = ?)", arguments: [contact.phone.e164]) ?? false
        if let replacing {
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM contact WHERE phone = ?)", arguments: [replacing.e164]) == true else {
                throw FallDetectError(.invalidArgument, "no contact has the number \(replacing.e164)", field: "replacing")
            }
            guard !taken || replacing == contact.phone else {
                throw FallDetectError(.invalidArgument, "\(contact.phone.e164) is already a contact", field: "phone")
            }
            try db.execute(
                sql: "UPDATE contact SET name = ?, phone = ?, channel = ? WHERE phone = ?",
                arguments: [contact.name, contact.phone.e164, contact.channel, replacing.e164])
            return
        }
        guard !taken else { throw FallDetectError(.invalidArgument, "\(contact.phone.e164) is already a contact", field: "phone") }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact") ?? 0
        guard count < limit else { throw FallDetectError(.invalidArgument, "at most \(limit) contacts", field: "contact") }
        try upsert(contact)
    }
}
