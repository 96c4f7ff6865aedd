import FallDetect
import Foundation
import Testing
@testable import detectord

@Suite struct LoginTokensTests {
    @Test func aTokenIsShownOnceKeptAsAHashAndReplacedByTheNext() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try WorkflowStore(path: dir + "/detectord.sqlite")
        let tokens = LoginTokens(store: store)
        let first = try #require(try tokens.issueIfMissing())
        #expect(try tokens.issueIfMissing() == nil, "a second start shows nothing")
        #expect(first.count == 43 && !first.contains("="))
        let stored = try #require(try store.setting(LoginTokens.settingKey, as: String.self))
        #expect(stored != first && stored.count == 64, "only the keyed hash is stored")
        let session = try #require(tokens.login(token: first, at: 0))
        #expect(tokens.isValid(session: session, at: 1))
        #expect(!tokens.isValid(session: session, at: LoginTokens.sessionLifetime + 1), "sessions expire")
        #expect(tokens.login(token: "wrong", at: 0) == nil)
        let second = try tokens.issue()
        #expect(!tokens.isValid(token: first) && tokens.isValid(token: second))
        #expect(!tokens.isValid(session: session, at: 1), "a new token ends the old sessions")
    }
}
