extension WorkflowTransaction {
    /// Makes the stored person, contacts and PIN what the daemon's configuration file says, for
    /// each it gives (nil leaves the page's set-up as it is). The duress PIN is the file's alone:
    /// there is one exactly when the file has it, so a file without `[pin]` leaves none (the
    /// page, which may then change the PIN, cannot see or remove one). The file is root's to
    /// edit, so it needs no PIN (the page's changes do); a person who changed is protected under
    /// the new details. An emergency in progress keeps its state; contacts the file changed are
    /// told from now on, and whoever was told before still gets its all clear.
    public func adopt(
        person: ProtectedPerson?, contacts: [Contact]?, pinHash: String?, duressHash: String? = nil, settings: WorkflowSettings,
        gnssConfigured: Bool, at now: Int64
    ) throws -> [WorkflowAction] {
        if let contacts {
            try db.execute(sql: "DELETE FROM contact")
            for contact in contacts { try upsert(contact) }
        }
        // A new PIN from the file starts with no wrong tries, as one set on the page does: root
        // setting one for a wearer who forgot theirs (or was locked out on purpose) must not
        // find it locked for up to a day by the old one's count.
        if let pinHash, try setting("pinHash", as: String.self) != pinHash {
            try setSetting("pinHash", pinHash)
            try setSetting("pinLock", PINLock())
            try setSetting(Self.setupPINLock, PINLock())
        }
        if let duressHash, pinHash != nil {
            try setSetting("duressHash", duressHash)
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = 'duressHash'")
        }
        var machine = try workflow()
        if machine.settings != settings {
            machine.settings = settings
            try setSetting("workflow", machine)
        }
        // Without [person] the page's wearer (if set up) is protected as stored.
        guard let person, machine.person != person else { return [] }
        let hasFix = try lastPosition() != nil
        return try apply(.startProtection(person, gnssConfigured: gnssConfigured, hasFix: hasFix), at: now)
    }
}
