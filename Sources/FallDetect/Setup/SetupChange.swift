/// One change the person setting up the device makes on its page. Before a PIN is set anyone
/// near the device may make them (it is being set up); afterwards each needs the PIN, so nobody
/// can quietly remove a guardian or turn detection down.
public enum SetupChange: Sendable, Equatable {
    /// Who wears the device; protection starts (or goes on) under these details.
    case person(ProtectedPerson, gnssConfigured: Bool)
    /// A new PIN (checked by `PINHasher.validate`); the current one is needed to change it.
    case pin(String)
    /// Adds a contact, or edits the one whose number is `replacing`.
    case saveContact(Contact, replacing: PhoneNumber?, limit: Int)
    case removeContact(PhoneNumber)
    /// The detection profile and sensitivity the page chose.
    case detector(DetectorChoice)
    /// Runs the whole alert chain with every message marked as a test.
    case testAlarm
    /// Changes nothing: proves the PIN (the page then shows settings and full numbers).
    case unlock
}
