import DeviceLink
import FallDetect
import Foundation
import Hummingbird

/// The page's set-up, settings and history: the wearer, the PIN, the contacts, the keychain's
/// pairing, the profile, a test alarm, and each incident's record. Before a PIN is set anyone
/// who can reach the page is setting the device up; afterwards each change needs the PIN, under
/// the per-client rate limit and the workflow's own lockout. Details the configuration file
/// gives (`[person]`, `[[contacts]]`, `[pin]`, `[detector] profile`, `[keychain] address`) are
/// shown but not changed here.
struct SetupRoutes: Sendable {
    let workflow: WorkflowService
    let store: WorkflowStore
    let limiter: PINRateLimiter
    /// What the configuration file decides, so the page may not.
    let fileManaged: FileManaged
    /// Channels a contact may be reached by; the first is the default.
    let contactChannels: [String]
    let gnssConfigured: Bool
    /// The profile running now, and how to switch to another.
    let detector: DetectorSwitch
    /// The keychain's radio for the page's scan and pairing; nil without `[keychain]`.
    var pairingRadio: (@Sendable () -> any KeychainRadio)?
    var keychainProfile = KeychainProfile()
    var keychain: KeychainService?

    struct FileManaged: Sendable {
        var person = false
        var contacts = false
        var detector = false
        /// `[pin]`: each start sets the file's PIN again, so the page may not change it.
        var pin = false
        /// `[keychain] address`: the daemon connects to that tag whatever the page pairs.
        var keychain = false
    }

    /// An edit that names no channel keeps the one the contact has, while it is still
    /// configured: the page's form has no channel, and correcting a name must not move the
    /// contact to the first channel.
    static func keepingChannel(_ body: APIRequestFields.Body, of stored: [Contact], configured: [String]) -> APIRequestFields.Body {
        guard body["channel"] == nil, let replacing = (body["replacing"] as? String).flatMap({ PhoneNumber($0) }),
            let channel = stored.first(where: { $0.phone == replacing })?.channel, configured.contains(channel)
        else { return body }
        var body = body
        body["channel"] = channel
        return body
    }

    static let contactLimit = ContactSettings.maximumCount

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/api/setup") { _, _ in
            // Before a PIN exists the person setting up sees what they typed; contacts from the
            // file are nobody's to edit here, so they stay masked.
            try APIRoutes.json(try details(full: !(try store.snapshot { try $0.isSetUp() }) && !fileManaged.contacts))
        }
        // The PIN shows the full numbers (and proves it before the settings open).
        router.post("/api/setup/details") { request, context in
            try await guarded(request, context, .unlock) { _ in try APIRoutes.json(try details(full: true)) }
        }
        router.post("/api/setup/person") { request, context in
            if fileManaged.person { return try APIRoutes.problem(.conflict, "the wearer is set in the configuration file; change it there") }
            let body = try await APIRoutes.body(request)
            let person = try APIRoutes.fields(in: body, APIRequestFields.person)
            return try await guarded(request, context, .person(person, gnssConfigured: gnssConfigured), body: body)
        }
        router.post("/api/setup/pin") { request, context in
            if fileManaged.pin { return try APIRoutes.problem(.conflict, "the PIN is set in the configuration file ([pin]); change it there") }
            let body = try await APIRoutes.body(request)
            let new = try APIRoutes.fields(in: body, APIRequestFields.newPIN)
            return try await guarded(request, context, .pin(new), body: body)
        }
        router.post("/api/setup/contact") { request, context in
            if fileManaged.contacts { return try APIRoutes.problem(.conflict, "the contacts are set in the configuration file; change them there") }
            let body = try await APIRoutes.body(request)
            let edit = Self.keepingChannel(body, of: try store.contacts(), configured: contactChannels)
            let given = try APIRoutes.fields(in: edit) { body throws(FallDetectError) in
                try APIRequestFields.contact(body, channels: contactChannels)
            }
            return try await guarded(request, context, .saveContact(given.contact, replacing: given.replacing, limit: Self.contactLimit), body: body)
        }
        router.post("/api/setup/contact/delete") { request, context in
            if fileManaged.contacts { return try APIRoutes.problem(.conflict, "the contacts are set in the configuration file; change them there") }
            let body = try await APIRoutes.body(request)
            let phone = try APIRoutes.fields(in: body, APIRequestFields.contactToDelete)
            return try await guarded(request, context, .removeContact(phone), body: body)
        }
        router.post("/api/setup/detector") { request, context in
            if fileManaged.detector { return try APIRoutes.problem(.conflict, "the profile is set in the configuration file ([detector] profile); change it there") }
            let body = try await APIRoutes.body(request)
            let choice = try APIRoutes.fields(in: body, APIRequestFields.detector)
            let prepared: DetectorSwitch.Prepared
            do throws(FallDetectError) { prepared = try detector.prepare(choice) } catch { return try APIFieldRefusal(error).response() }
            return try await guarded(request, context, .detector(choice), body: body) { _ in
                // Saved already; a chip that changed rate in between, to one this profile cannot
                // run at, keeps the running pipeline and says why.
                do throws(FallDetectError) { try detector.install(prepared, as: choice) } catch { return try APIFieldRefusal(error).response() }
                return try APIRoutes.json(["ok": true, "profile": choice.profile, "sensitivity": choice.sensitivity])
            }
        }
        router.post("/api/setup/test-alarm") { request, context in
            let body = try await APIRoutes.body(request)
            return try await guarded(request, context, .testAlarm, body: body) { actions in
                try APIRoutes.answer(.success(actions))
            }
        }
        router.post("/api/keychain/scan") { request, _ in
            if let refusal = APIRoutes.refusal(request) { return refusal }
            guard let pairingRadio else { return try APIRoutes.problem(.conflict, "no [keychain] is configured") }
            let body = try await APIRoutes.body(request)
            let seconds = try APIRoutes.fields(in: body, APIRequestFields.scanSeconds)
            let found: [KeychainCandidate]
            do throws(KeychainPairingError) {
                found = try await KeychainPairing(radio: pairingRadio(), profile: keychainProfile).scan(seconds: seconds)
            } catch {
                return try APIRoutes.problem(.serviceUnavailable, error.description)
            }
            let list: [[String: Any]] = found.map {
                ["address": $0.address.description, "address_type": $0.addressType.rawValue, "name": $0.name,
                 "rssi": $0.rssi ?? NSNull(), "bars": $0.bars]
            }
            return try APIRoutes.json(["ok": true, "found": list])
        }
        // Beeps the chosen keychain and waits for its button: "Is this your keychain?"
        router.post("/api/keychain/pair") { request, context in
            guard let pairingRadio else { return try APIRoutes.problem(.conflict, "no [keychain] is configured") }
            if fileManaged.keychain {
                return try APIRoutes.problem(.conflict, "the keychain is set in the configuration file ([keychain] address); change it there")
            }
            let body = try await APIRoutes.body(request)
            let wanted = try APIRoutes.fields(in: body, APIRequestFields.pairing)
            return try await guarded(request, context, .unlock, body: body) { _ in
                try await pair(wanted.candidate, radio: pairingRadio(), confirmWithin: wanted.confirmWithin)
            }
        }
        router.get("/api/incidents") { _, _ in
            let history = try store.incidentHistory(limit: 20)
            return try APIRoutes.json(["incidents": history.map(Self.incident)])
        }
    }

    /// Checks the rate limit and the PIN (when one is set), makes the change, and answers with
    /// `then` or a plain `{"ok": true}`.
    private func guarded(
        _ request: Request, _ context: DeviceRequestContext, _ change: SetupChange, body given: [String: Any]? = nil,
        then: (@Sendable ([WorkflowAction]) async throws -> Response)? = nil
    ) async throws -> Response {
        if let refusal = APIRoutes.refusal(request) { return refusal }
        var body = given ?? [:]
        if given == nil { body = try await APIRoutes.body(request) }
        let pin = body["pin"] as? String
        // Counted apart from disarming's tries: wrong PINs in Settings must not get the same
        // address (every loopback client shares one) refused at the PIN pad during an alarm.
        let client = "settings " + (context.remoteAddress?.ipAddress ?? "unknown")
        if pin != nil {
            if let wait = limiter.admit(client, at: MonotonicTime.nowNanoseconds()) { return try APIRoutes.tooManyTries(wait: wait) }
        }
        switch await workflow.setUp(change, pin: pin) {
        case .failure(let error):
            return try APIFieldRefusal(error).response()
        case .success(.pinNeeded):
            return try APIRoutes.json(["ok": false, "pin_required": true, "error": "enter the PIN", "field": "pin"], status: .forbidden)
        case .success(.wrongPIN):
            limiter.failed(client, at: MonotonicTime.nowNanoseconds())
            return try APIRoutes.json(["ok": false, "error": "wrong PIN", "field": "pin"], status: .forbidden)
        case .success(.lockedOut(let seconds)):
            let left = Int(seconds.rounded(.up))
            return try APIRoutes.json(["ok": false, "error": "PIN entry locked for \(left) s after wrong tries", "locked_s": left, "field": "pin"], status: .tooManyRequests)
        case .success(.done(let actions)):
            if let then { return try await then(actions) }
            return try APIRoutes.json(["ok": true])
        }
    }

    private func pair(_ candidate: KeychainCandidate, radio: any KeychainRadio, confirmWithin: Double) async throws -> Response {
        guard let person = try store.workflow().person else {
            return try APIRoutes.problem(.conflict, "set up the wearer first: the keychain is bound to them")
        }
        let confirmation: KeychainPairing.Confirmation
        do throws(KeychainPairingError) {
            confirmation = try await KeychainPairing(radio: radio, profile: keychainProfile).confirm(candidate, confirmWithin: confirmWithin)
        } catch {
            let notFound = if case .notConfirmed = error { false } else { true }
            return try APIRoutes.json(["ok": false, "error": error.description, "not_found": notFound], status: .conflict)
        }
        let binding = KeychainBinding(address: candidate.address.description, addressType: candidate.addressType.rawValue,
                                      name: candidate.name, person: person.phone.e164, device: "", boundAt: WorkflowService.utcNow())
        // The keychain bound until now is forgotten only now that the new one has answered: a
        // pairing that fails leaves the wearer with the SOS button they had. A binding refused
        // (the keychain is another device's) is a conflict the message explains, not a failure.
        do {
            try store.transaction { tx in try tx.replaceKeychain(with: binding) }
        } catch let error as FallDetectError where error.code == .invalidArgument {
            return try APIRoutes.problem(.conflict, error.message)
        }
        keychain?.reload()
        return try APIRoutes.json(["ok": true, "address": binding.address, "name": binding.name, "battery_percent": confirmation.battery ?? NSNull()])
    }

    /// What the set-up screens show; numbers in full only to whoever gave the PIN (or before one
    /// exists, to whoever is setting the device up).
    func details(full: Bool) throws -> [String: Any] {
        let (machine, contacts, setUp, choice, binding) = try store.snapshot { tx in
            (try tx.workflow(), try tx.contacts(), try tx.isSetUp(), try tx.detectorChoice(), try tx.keychainBinding())
        }
        func number(_ e164: String) -> String { full ? e164 : DaemonStatus.masked(e164) }
        let current = detector.current()
        return [
            "complete": setUp, "pin_set": setUp, "full_numbers": full,
            "person": machine.person.map { ["name": $0.fullName, "phone": number($0.phone.e164), "country": $0.country] as [String: Any] } ?? NSNull(),
            "contacts": contacts.map { ["name": $0.name, "phone": number($0.phone.e164), "channel": $0.channel] },
            "contact_limit": Self.contactLimit, "contact_channels": contactChannels,
            "file_managed": [
                "person": fileManaged.person, "contacts": fileManaged.contacts, "detector": fileManaged.detector, "pin": fileManaged.pin,
                "keychain": fileManaged.keychain,
            ],
            "detector": ["profile": current.profile, "sensitivity": current.sensitivity, "chosen_on_page": choice != nil && !fileManaged.detector],
            "profiles": DetectionProfile.all.map(\.name), "sensitivities": DetectionSensitivity.allCases.map(\.rawValue),
            "keychain": binding.map { ["address": $0.address, "name": $0.name] as [String: Any] } ?? NSNull(),
            "keychain_configured": pairingRadio != nil,
        ]
    }

    static func incident(_ h: IncidentHistory) -> [String: Any] {
        var object: [String: Any] = [
            "id": h.incident.id, "trigger": h.incident.trigger, "started": DaemonEvent.timestamp(h.incident.startedAt),
            "evidence": h.evidence,
            "timeline": h.timeline.map { ["time": DaemonEvent.timestamp($0.time), "type": $0.type, "detail": maskingNumbers($0.payload)] },
            "messages": h.messages.map { m -> [String: Any] in
                var message: [String: Any] = [
                    "kind": m.kind, "channel": m.channel,
                    "recipient": m.recipient.hasPrefix("+") ? DaemonStatus.masked(m.recipient) : m.recipient,
                    "queued": DaemonEvent.timestamp(m.createdAt), "attempts": m.attempts, "test": m.isTest,
                ]
                message["delivered"] = m.deliveredAt.map(DaemonEvent.timestamp) ?? NSNull()
                message["state"] = m.deliveredAt != nil ? "delivered" : m.supersededAt != nil ? "abandoned" : "waiting"
                return message
            },
        ]
        object["sent"] = h.incident.sentAt.map(DaemonEvent.timestamp) ?? NSNull()
        object["ended"] = h.incident.endedAt.map(DaemonEvent.timestamp) ?? NSNull()
        object["outcome"] = h.incident.outcome ?? NSNull()
        return object
    }

    /// Journal lines name recipients inside message keys (`msg-3-sms-+351913333333`): masked too.
    static func maskingNumbers(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let plus = rest.firstIndex(of: "+") {
            result += rest[..<plus]
            let digits = rest[rest.index(after: plus)...].prefix { $0.isASCII && $0.isNumber }
            let number = "+" + digits
            result += digits.count >= 7 ? DaemonStatus.masked(String(number)) : String(number)
            rest = rest[rest.index(plus, offsetBy: number.count)...]
        }
        return result + rest
    }
}
