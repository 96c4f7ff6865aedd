import FallDetect
import Foundation
import Testing
@testable import detectord

/// The daemon beyond loopback over real HTTPS (a certificate made here with openssl, verified by
/// the client): loopback needs nothing, other addresses need the token or a session, `ctl token`
/// replaces the token and ends the old one, and the session cookie is Secure, HttpOnly, Strict.
@Suite(.serialized) struct HTTPSAccessTests {
    @Test func otherAddressesNeedTheTokenOverHTTPS() throws {
        guard let address = WebPageTests.externalAddress() else {
            Issue.record("this machine has no address other than loopback: the login from elsewhere cannot be tested")
            return
        }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let cert = setup.directory.appendingPathComponent("cert.pem").path
        let key = setup.directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                             "-subj", "/CN=detectord", "-addext", "subjectAltName=IP:\(address),IP:127.0.0.1"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0, "openssl made no certificate")
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true)
        let text = try String(contentsOfFile: setup.configPath, encoding: .utf8)
            .replacingOccurrences(of: "listen = \"127.0.0.1:8180\"", with: "listen = \"0.0.0.0:8180\"\ncertificate = \"\(cert)\"\nkey = \"\(key)\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: setup.configPath))
        let daemon = try setup.start(["--listen", "0.0.0.0:0"])
        defer { daemon.kill9() }
        let first = try #require(DaemonProcess.value("token", in: try daemon.waitForEvent("login_token")))
        let url = try daemon.waitForEvent("api")
        #expect(url.contains("https://"), "\(url)")
        let port = try #require(DaemonProcess.value("url", in: url).flatMap { URL(string: $0)?.port })
        let renewed = try DetectordProcess.run(["ctl", "token", "--db", setup.databasePath])
        #expect(renewed.status == 0, "\(renewed.standardError)")
        let second = renewed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(second.count == 43 && second != first)

        // The client verifies the server against the certificate made above.
        let script = """
            import json, ssl, sys, urllib.request, urllib.error
            cafile, local, remote, old, new = sys.argv[1:]
            context = ssl.create_default_context(cafile=cafile)
            def call(url, body=None, headers={}):
                data = None if body is None else json.dumps(body).encode()
                h = dict(headers)
                if body is not None: h["Content-Type"] = "application/json"
                req = urllib.request.Request(url, data=data, headers=h, method="POST" if body is not None else "GET")
                try:
                    with urllib.request.urlopen(req, context=context, timeout=10) as r: return r.status, r.headers.get("Set-Cookie", "")
                except urllib.error.HTTPError as e: return e.code, ""
            result = {
                "loopback": call(local + "/api/status")[0],
                "remote_none": call(remote + "/api/status")[0],
                "remote_page": call(remote + "/")[0],
                "remote_old": call(remote + "/api/status", headers={"Authorization": "Bearer " + old})[0],
                "remote_new": call(remote + "/api/status", headers={"Authorization": "Bearer " + new})[0],
                "login_wrong": call(remote + "/api/login", {"token": old})[0],
            }
            status, cookie = call(remote + "/api/login", {"token": new})
            result["login"] = status
            result["cookie_flags"] = sorted(p.strip() for p in cookie.split(";")[1:])
            session = cookie.split(";")[0]
            result["with_session"] = call(remote + "/api/status", headers={"Cookie": session})[0]
            print(json.dumps(result))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, cert, "https://127.0.0.1:\(port)", "https://\(address):\(port)", first, second]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        #expect(result["loopback"] as? Int == 200)
        #expect(result["remote_none"] as? Int == 401)
        #expect(result["remote_page"] as? Int == 200, "the page itself loads, to show the login")
        #expect(result["remote_old"] as? Int == 401, "ctl token ended the first token")
        #expect(result["remote_new"] as? Int == 200)
        #expect(result["login_wrong"] as? Int == 401)
        #expect(result["login"] as? Int == 200)
        #expect((result["cookie_flags"] as? [String]) == ["HttpOnly", "Max-Age=604800", "Path=/", "SameSite=Strict", "Secure"])
        #expect(result["with_session"] as? Int == 200)
    }
}
