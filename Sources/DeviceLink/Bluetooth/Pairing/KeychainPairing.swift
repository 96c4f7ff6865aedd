/// The pairing steps SafeTime's wireframes show, without the screens: scan, then for the chosen
/// button connect, make it beep ("Is this your keychain?") and wait for a press that confirms it.
/// Binding it is the caller's (it is stored in the workflow database).
public struct KeychainPairing: Sendable {
    public let radio: any KeychainRadio
    public var profile: KeychainProfile

    public init(radio: any KeychainRadio, profile: KeychainProfile = KeychainProfile()) {
        self.radio = radio
        self.profile = profile
    }

    /// What the confirmed keychain told us.
    public struct Confirmation: Sendable, Equatable {
        public var battery: Int?
        /// Seconds from the start of the beep to the press.
        public var pressedAfter: Double
    }

    public func scan(seconds: Double, progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws(KeychainPairingError) -> [KeychainCandidate] {
        try await radio.scan(seconds: seconds, progress: progress)
    }

    /// Connects, beeps until the button is pressed or `confirmWithin` passes, then silences the
    /// tag and closes the link (the daemon makes its own).
    public func confirm(_ candidate: KeychainCandidate, connectTimeout: Double = 15, confirmWithin: Double = 30,
                        beeping: @escaping @Sendable () -> Void = {}) async throws(KeychainPairingError) -> Confirmation {
        let connector = radio.connector(for: candidate.address, type: candidate.addressType)
        let socket: ATTSocket
        do throws(ATTError) { socket = try await connector.connect(timeout: connectTimeout) } catch {
            throw .link(L2CAPConnector.guidance(error).map { "\(error): \($0)" } ?? error.description)
        }
        let bearer: ATTBearer
        do throws(ATTError) { bearer = try ATTBearer(socket: socket, label: "pairing \(candidate.address)", defaultTimeout: profile.requestTimeout) } catch {
            throw .link(error.description)
        }
        defer { bearer.close() }
        let session: KeychainSession
        do throws(KeychainSessionError) { session = try await KeychainSession.open(bearer, profile: profile) } catch {
            throw .link(error.description)
        }
        // Pairing needs the beeper and a press to come: a tag that stopped answering cannot pair.
        if let cutShort = session.cutShort { throw .link(cutShort.description) }
        try? await session.setAlert(1)
        beeping()
        let started = ContinuousClock.now
        let pressed = await Self.firstPress(on: bearer, handle: session.buttonHandle, within: confirmWithin)
        try? await session.setAlert(0)
        // Let the silencing write leave before the link closes.
        try? await Task.sleep(for: .milliseconds(100))
        guard pressed else { throw .notConfirmed(seconds: confirmWithin) }
        let elapsed = ContinuousClock.now - started
        return Confirmation(battery: session.battery,
                            pressedAfter: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private static func firstPress(on bearer: ATTBearer, handle: UInt16, within seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await event in bearer.events {
                    switch event {
                    case .notification(handle, _, _), .indication(handle, _, _): return true
                    case .closed: return false
                    default: continue
                    }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
