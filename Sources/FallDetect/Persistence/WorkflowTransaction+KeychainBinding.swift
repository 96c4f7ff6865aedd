import Foundation
import GRDB

extension WorkflowTransaction {
    /// This device's identity, made on first use: what a binding records as "where".
    public func deviceID() throws -> String {
        if let id = try setting("deviceID", as: String.self) { return id }
        let id = UUID().uuidString.lowercased()
        try setSetting("deviceID", id)
        return id
    }

    /// The keychain bound on this device, if any. Reads only (a device without an identity yet
    /// has bound nothing), so it works in a snapshot.
    public func keychainBinding() throws -> KeychainBinding? {
        guard let device = try setting("deviceID", as: String.self) else { return nil }
        return try KeychainBinding.filter(Column("device") == device).fetchOne(db)
    }

    /// Any binding of `address`, on this device or another whose database this is.
    public func binding(of address: String) throws -> KeychainBinding? {
        try KeychainBinding.fetchOne(db, key: address.uppercased())
    }

    /// Binds a keychain: one keychain to one person on one device. Refused, with a message that
    /// says what to do, when the keychain belongs to someone else or another device, or when this
    /// device already has a different keychain (forget it first: a person with two panic buttons
    /// would have one nobody watches).
    public func bindKeychain(_ binding: KeychainBinding) throws {
        var binding = binding
        binding.address = binding.address.uppercased()
        binding.device = try deviceID()
        if let existing = try self.binding(of: binding.address) {
            guard existing.person == binding.person, existing.device == binding.device else {
                let whose = existing.device == binding.device ? "another person (\(existing.person))" : "another device (\(existing.device))"
                throw FallDetectError(.invalidArgument, "keychain \(binding.address) is already bound to \(whose); it must be forgotten there first (detectord pair --forget)", field: "keychain")
            }
        }
        if let mine = try keychainBinding(), mine.address != binding.address {
            throw FallDetectError(.invalidArgument, "this device already has keychain \(mine.address) (\(mine.name)); run detectord pair --forget first", field: "keychain")
        }
        try binding.save(db)
        try note("keychain", "bound \(binding.address) \(binding.name)", at: binding.boundAt)
    }

    /// Makes `binding` this device's keychain in place of the one it had, which is forgotten
    /// first: the page's pairing, after the new keychain answered. The same keychain paired again
    /// after the wearer's details changed follows the wearer: this device's keychain is whoever
    /// wears this device's. One bound on another device is still refused.
    public func replaceKeychain(with binding: KeychainBinding) throws {
        if let mine = try keychainBinding(), mine.address != binding.address.uppercased() || mine.person != binding.person {
            _ = try forgetKeychain(at: binding.boundAt)
        }
        try bindKeychain(binding)
    }

    /// Unbinds this device's keychain; returns what was bound. A loss of its link ends with it:
    /// the wearer must not be told that a keychain they removed is out of reach (its message
    /// still waiting is given up too).
    @discardableResult
    public func forgetKeychain(at now: Int64) throws -> KeychainBinding? {
        guard let mine = try keychainBinding() else { return nil }
        _ = try mine.delete(db)
        try note("keychain", "forgot \(mine.address)", at: now)
        try recordCondition("keychainLost", .keychainLost, holds: false, since: now, at: now,
                            began: ("keychain", ""), ended: ("keychain", "loss over: the keychain was forgotten"))
        return mine
    }
}
