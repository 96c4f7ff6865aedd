#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import DeviceLink

@Suite struct ATTBearerTests {
    static func pair(timeout: Double = 30) throws -> (ATTBearer, RawATTPeer) {
        let (ours, theirs) = try ATTSocket.pair()
        return (try ATTBearer(socket: ours, label: "test", defaultTimeout: timeout), RawATTPeer(theirs))
    }

    @Test func aRequestGetsItsResponseAndTheMTUIsAgreed() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        let answer = Task { try await bearer.request(.exchangeMTURequest(mtu: 517)) }
        #expect(await peer.nextPDU() == .exchangeMTURequest(mtu: 517))
        peer.send(.exchangeMTUResponse(mtu: 100))
        #expect(try await answer.value == .exchangeMTUResponse(mtu: 100))
        #expect(bearer.mtu == 100)
    }

    @Test func requestsGoOutOneAtATimeInOrder() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        let first = Task { try await bearer.request(.readRequest(handle: 1)) }
        #expect(await peer.nextPDU() == .readRequest(handle: 1))
        let second = Task { try await bearer.request(.readRequest(handle: 2)) }
        #expect(await peer.next(within: 0.2) == nil, "the second waits for the first's answer")
        peer.send(.readResponse([1]))
        #expect(await peer.nextPDU() == .readRequest(handle: 2))
        peer.send(.readResponse([2]))
        #expect(try await first.value == .readResponse([1]))
        #expect(try await second.value == .readResponse([2]))
    }

    @Test func anErrorResponseFailsTheRequestWithItsCode() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        let answer = Task { try await bearer.request(.readRequest(handle: 9)) }
        _ = await peer.next()
        peer.send(.errorResponse(request: 0x0A, handle: 9, code: .readNotPermitted))
        await #expect(throws: ATTError.errorResponse(request: 0x0A, handle: 9, code: .readNotPermitted)) { try await answer.value }
    }

    @Test func aMissedDeadlineFailsTheRequestAndClosesTheBearer() async throws {
        let (bearer, peer) = try Self.pair(timeout: 0.2)
        await #expect(throws: ATTError.timeout(request: 0x0A, seconds: 0.2)) { try await bearer.request(.readRequest(handle: 1)) }
        await #expect(throws: ATTError.self) { try await bearer.request(.readRequest(handle: 2)) }
        _ = peer
    }

    @Test func notificationsArriveAndIndicationsAreConfirmed() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        peer.send(.notification(handle: 0x10, value: [1]))
        peer.send(.indication(handle: 0x22, value: [2]))
        var iterator = bearer.events.makeAsyncIterator()
        guard case .notification(0x10, [1], _) = await iterator.next() else { Issue.record("no notification"); return }
        guard case .indication(0x22, [2], _) = await iterator.next() else { Issue.record("no indication"); return }
        #expect(await peer.nextPDU() == .confirmation)
    }

    @Test func thePeersOwnRequestsAreAnswered() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        peer.send(.exchangeMTURequest(mtu: 64))
        #expect(await peer.nextPDU() == .exchangeMTUResponse(mtu: 517))
        peer.send(.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService))
        #expect(await peer.nextPDU() == .errorResponse(request: 0x10, handle: 1, code: .attributeNotFound))
        peer.send(.readRequest(handle: 3))
        #expect(await peer.nextPDU() == .errorResponse(request: 0x0A, handle: 3, code: .invalidHandle))
        peer.send(.other(opcode: 0x16, parameters: [1, 0, 0, 0, 9]))
        #expect(await peer.nextPDU() == .errorResponse(request: 0x16, handle: 0, code: .requestNotSupported))
        peer.send(.writeCommand(handle: 3, value: [1]))
        peer.send([0x02, 0x17])  // truncated Exchange MTU request
        #expect(await peer.nextPDU() == .errorResponse(request: 0x02, handle: 0, code: .invalidPDU))
        #expect(bearer.mtu == 64)
    }

    @Test func malformedAnswersFailOnlyTheirRequest() async throws {
        let (bearer, peer) = try Self.pair()
        defer { bearer.close() }
        let broken = Task { try await bearer.request(.readByTypeRequest(start: 1, end: 0xFFFF, type: .characteristic)) }
        _ = await peer.next()
        peer.send([0x09, 7, 2, 0])
        await #expect(throws: ATTError.self) { try await broken.value }
        let good = Task { try await bearer.request(.readRequest(handle: 1)) }
        _ = await peer.next()
        peer.send([0x1B])  // an empty notification: dropped
        peer.send([])       // an empty frame: ignored
        peer.send(.writeResponse)  // the wrong answer
        await #expect(throws: ATTError.unexpectedResponse(request: 0x0A, got: 0x13)) { try await good.value }
        let after = Task { try await bearer.request(.readRequest(handle: 2)) }
        _ = await peer.next()
        peer.send(.readResponse([5]))
        #expect(try await after.value == .readResponse([5]))
        #expect(bearer.counters.malformed == 2)
    }

    /// A peer that hangs up with something of ours unread leaves us its error (ECONNRESET) ahead
    /// of the frames it sent before: Unix sockets order them so, as L2CAP does when a link drops.
    /// Those frames (a press, say) still arrive, before the end.
    @Test func framesSentBeforeADropArriveBeforeItsError() async throws {
        let (ours, theirs) = try ATTSocket.pair()
        #expect(try ours.send(ATTPDU.readRequest(handle: 1).encoded()))
        let peer = RawATTPeer(theirs)
        peer.send(.notification(handle: 0x10, value: [1]))
        peer.send(.notification(handle: 0x10, value: [2]))
        theirs.close()
        let bearer = try ATTBearer(socket: ours, label: "test")
        defer { bearer.close() }
        var events: [ATTBearerEvent] = []
        for await event in bearer.events { events.append(event) }
        let values = events.compactMap { if case .notification(0x10, let value, _) = $0 { value } else { nil } }
        #expect(values == [[1], [2]], "\(events)")
        guard case .closed(.disconnected(errno: ECONNRESET), _) = events.last else { Issue.record("\(events)"); return }
    }

    @Test func aHangUpFailsWhatIsPendingAndEndsTheEvents() async throws {
        let (bearer, peer) = try Self.pair()
        let pending = Task { try await bearer.request(.readRequest(handle: 1)) }
        _ = await peer.next()
        peer.socket.close()
        await #expect(throws: ATTError.disconnected(errno: 0)) { try await pending.value }
        var last: ATTBearerEvent?
        for await event in bearer.events { last = event }
        guard case .closed(.disconnected(errno: 0), _) = last else { Issue.record("\(String(describing: last))"); return }
    }

    @Test func closingFailsQueuedRequests() async throws {
        let (bearer, peer) = try Self.pair()
        let pending = Task { try await bearer.request(.readRequest(handle: 1)) }
        _ = await peer.next()
        bearer.close()
        await #expect(throws: ATTError.closed) { try await pending.value }
        #expect(throws: ATTError.self) { try bearer.send(.writeCommand(handle: 1, value: [0])) }
    }
}
