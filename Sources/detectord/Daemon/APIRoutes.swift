import FallDetect
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The HTTP API: the status, the event stream (server-sent events) and the person's actions,
/// the page's set-up (`SetupRoutes`), plus Prometheus metrics. Loopback needs no login, other
/// addresses do (`AccessGuard`); every state-changing request must be `application/json` (a page
/// on another site cannot send that without the browser asking first) from this origin, PIN
/// tries are rate limited per client, and the PIN rules are the workflow's own.
struct APIRoutes: Sendable {
    let workflow: WorkflowService
    let status: DaemonStatus
    let hub: EventHub
    let metrics: DaemonMetrics
    var keychain: KeychainService? = nil
    /// Presses the simulated keychain (`POST /api/keychain/press`: demos, page tests); nil or
    /// false without one.
    var pressSimulatedKeychain: (@Sendable (KeychainPress) -> Bool)? = nil
    /// Moves the simulated keychain out of range or back and sets its battery.
    var simulateKeychain: (@Sendable (_ inRange: Bool?, _ battery: Int?) -> Bool)? = nil
    /// The device's own page, served at `/`; nil serves none.
    var page: WebPage? = nil
    var setup: SetupRoutes? = nil
    var tokens: LoginTokens? = nil
    var limiter = PINRateLimiter()
    /// Session cookies get `Secure` when the API is served over HTTPS.
    var secure = false

    func router() -> Router<DeviceRequestContext> {
        let router = Router(context: DeviceRequestContext.self)
        router.add(middleware: LoopbackHostGuard())
        let open = Set((page?.files.keys).map(Array.init) ?? []).union(["/api/login"])
        router.add(middleware: AccessGuard(tokens: tokens, open: open))
        page?.add(to: router)
        setup?.add(to: router)
        router.post("/api/login") { request, context in
            if let refusal = Self.refusal(request) { return refusal }
            guard let tokens else { return try Self.problem(.notFound, "no login on this device") }
            let client = context.remoteAddress?.ipAddress ?? "unknown"
            if let wait = limiter.admit("login " + client, at: MonotonicTime.nowNanoseconds()) { return try Self.tooManyTries(wait: wait) }
            let body = try await Self.body(request)
            guard let token = APIRequestFields.loginToken(body), let session = tokens.login(token: token, at: MonotonicTime.nowNanoseconds()) else {
                limiter.failed("login " + client, at: MonotonicTime.nowNanoseconds())
                return try Self.problem(.unauthorized, "wrong token")
            }
            var response = try Self.json(["ok": true])
            let lifetime = LoginTokens.sessionLifetime / 1_000_000_000
            response.headers[.setCookie] = "\(LoginTokens.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(lifetime)\(secure ? "; Secure" : "")"
            return response
        }
        router.get("/api/status") { _, _ in
            try Self.json(status.report())
        }
        router.get("/api/events") { request, context in
            // A remote stream ends when its login no longer holds; the device's own tools need none.
            let always: @Sendable () -> Bool = { true }
            guard !context.isLoopback, let tokens else { return events(allowed: always) }
            return events(allowed: AccessGuard.credentials(request, tokens: tokens))
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render(status.liveStatistics(), condition: status.sensorCondition()))))
        }
        let simple: [(String, WorkflowInput)] = [
            ("sos", .sos(fromKeychain: false)), ("fine", .imFine), ("call112", .call112), ("quit", .quit),
            ("cancel", .cancel), ("resume", .resume),
        ]
        for (path, input) in simple {
            router.post("/api/\(path)") { request, _ in
                if let refusal = Self.refusal(request) { return refusal }
                return try Self.answer(await workflow.apply(input, origin: "api"))
            }
        }
        router.post("/api/survey") { request, _ in
            if let refusal = Self.refusal(request) { return refusal }
            let answer = try Self.fields(in: await Self.body(request), APIRequestFields.survey)
            return try Self.answer(await workflow.apply(.survey(answer), origin: "api"))
        }
        router.post("/api/disarm") { request, context in
            if let refusal = Self.refusal(request) { return refusal }
            let client = context.remoteAddress?.ipAddress ?? "unknown"
            if let wait = limiter.admit(client, at: MonotonicTime.nowNanoseconds()) { return try Self.tooManyTries(wait: wait) }
            let pin = try Self.fields(in: await Self.body(request), APIRequestFields.disarmPIN)
            let result = await workflow.disarm(pin: pin)
            if case .success(let actions) = result, actions.contains(.ignored("wrong PIN")) { limiter.failed(client, at: MonotonicTime.nowNanoseconds()) }
            return try Self.answer(result)
        }
        router.post("/api/keychain/beep") { request, _ in
            if let refusal = Self.refusal(request) { return refusal }
            let seconds = try Self.fields(in: await Self.body(request), APIRequestFields.beepSeconds)
            guard keychain?.testBeep(seconds: seconds) == true else { return try Self.problem(.conflict, "no keychain is paired") }
            return try Self.json(["ok": true, "beeping_s": seconds])
        }
        router.post("/api/keychain/reload") { request, _ in
            if let refusal = Self.refusal(request) { return refusal }
            guard let keychain else { return try Self.problem(.conflict, "no [keychain] is configured") }
            keychain.reload()
            return try Self.json(["ok": true])
        }
        router.post("/api/keychain/press") { request, _ in
            if let refusal = Self.refusal(request) { return refusal }
            let pattern = try Self.fields(in: await Self.body(request), APIRequestFields.pressPattern)
            guard pressSimulatedKeychain?(pattern) == true else {
                return try Self.problem(.conflict, "only a simulated keychain can be pressed from here ([keychain] kind = \"simulated\")")
            }
            return try Self.json(["ok": true, "pattern": pattern.rawValue])
        }
        router.post("/api/keychain/simulate") { request, _ in
            if let refusal = Self.refusal(request) { return refusal }
            let wanted = try Self.fields(in: await Self.body(request), APIRequestFields.keychainSimulation)
            guard simulateKeychain?(wanted.inRange, wanted.battery) == true else {
                return try Self.problem(.conflict, "only a simulated keychain can be moved from here ([keychain] kind = \"simulated\")")
            }
            return try Self.json(["ok": true])
        }
        return router
    }

    /// `text/event-stream`: the recent events, then each new one as `event: TYPE` and `data: JSON`,
    /// with a comment every 15 s so proxies and browsers keep the connection.
    private func events(allowed: @escaping @Sendable () -> Bool) -> Response {
        let stream = hub.subscribe(replay: true)
        let body = ResponseBody { writer in
            // Bounded as the hub's own stream is: a client that stops reading holds the writer
            // back, and must lose its oldest events rather than grow this buffer without end.
            let merged = AsyncStream<String>(bufferingPolicy: .bufferingNewest(256)) { continuation in
                let forward = Task {
                    for await event in stream { continuation.yield("event: \(event.type)\ndata: \(event.json)\n\n") }
                    continuation.finish()
                }
                let keepAlive = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(15))
                        continuation.yield(": keep-alive\n\n")
                    }
                }
                continuation.onTermination = { _ in
                    forward.cancel()
                    keepAlive.cancel()
                }
            }
            // Ends when the daemon stops: the server waits for every response to finish, and an
            // open stream would hold the stop until systemd's SIGKILL.
            for await chunk in merged.cancelOnGracefulShutdown() {
                guard allowed() else { break }
                try await writer.write(ByteBuffer(string: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// Refuses a state-changing request a browser could have sent from another site.
    static func refusal(_ request: Request) -> Response? {
        isJSON(request) ? nil : try? problem(.unsupportedMediaType, notJSON)
    }

    private static func isJSON(_ request: Request) -> Bool {
        (request.headers[.contentType]?.lowercased() ?? "").hasPrefix("application/json")
    }

    private static let notJSON = "send actions as application/json"

    static func body(_ request: Request) async throws -> [String: Any] {
        // The media type first: a body another site's form could send is not even read.
        guard isJSON(request) else { throw HTTPError(.unsupportedMediaType, message: notJSON) }
        let buffer = try await request.body.collect(upTo: maximumBodyBytes)
        guard let object = object(Data(buffer.readableBytesView)) else {
            throw HTTPError(.badRequest, message: "the body is not a JSON object")
        }
        return object
    }

    /// Every POST body is one small JSON object; an empty body is an empty object.
    static let maximumBodyBytes = 4096

    /// The body's JSON object, or nil when it is anything else (the `api-body` fuzz target's entry).
    static func object(_ data: Data) -> [String: Any]? {
        guard !data.isEmpty else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The workflow's answer: what it did, or why not (PIN required, ignored, locked out).
    static func answer(_ result: Result<[WorkflowAction], FallDetectError>) throws -> Response {
        switch result {
        case .failure(let error) where error.code == .deferred:
            // 202: taken, not yet recorded; the daemon keeps it and tries again.
            return try json(["ok": true, "pending": true, "pin_required": false, "transitions": [], "notes": [error.message]], status: .accepted)
        case .failure(let error):
            return try problem(error.code == .invalidArgument ? .badRequest : .internalServerError, error.message)
        case .success(let actions):
            var notes: [String] = []
            var transitions: [[String: String]] = []
            var pinRequired = false
            for action in actions {
                switch action {
                case .transition(let from, let to, let reason):
                    transitions.append(["from": from.rawValue, "to": to.rawValue, "reason": reason])
                case .pinRequired: pinRequired = true
                case .ignored(let why), .warning(let why): notes.append(why)
                default: break
                }
            }
            // Ignored: the action does not apply in this state (409), or needs the PIN first (403).
            let ok = !pinRequired && (notes.isEmpty || !transitions.isEmpty)
            let object: [String: Any] = ["ok": ok, "pin_required": pinRequired, "transitions": transitions, "notes": notes]
            return try json(object, status: pinRequired ? .forbidden : ok ? .ok : .conflict)
        }
    }

    /// 429 with `Retry-After`: this client gave too many wrong PINs (or tokens) lately.
    static func tooManyTries(wait: Double) throws -> Response {
        let seconds = Int(wait.rounded(.up))
        var response = try json(["ok": false, "error": "too many wrong tries; wait \(seconds) s", "retry_after_s": seconds], status: .tooManyRequests)
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// One route's fields from its body, through the `APIRequestFields` decoder the api-body fuzz
    /// target also runs; what does not decode is answered by `APIFieldRefusal`.
    static func fields<Value>(
        in body: [String: Any], _ decode: (APIRequestFields.Body) throws(FallDetectError) -> Value
    ) throws(APIFieldRefusal) -> Value {
        do throws(FallDetectError) { return try decode(body) } catch { throw APIFieldRefusal(error) }
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) throws -> Response {
        try json(["ok": false, "error": message], status: status)
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
