import Foundation
import OrderedJSON
import TestSupport
import Testing

/// `linkhost serve` with `server.tls.acme` against the real Pebble CA, through the built binary:
/// real HTTP-01 validation on linkhost's own plain listener (Pebble's `httpPort`), `linkhost
/// certificates`, `certificates renew` through the admin API and by signal, and a restart with the
/// CA down serving the stored certificate.
@Suite("ACME: linkhost serve against Pebble", .serialized, .ownThread)
struct ACMEServeTests {
    static let hosts = ["rowhni.com", "forums.somethingawful.com", "archives.somethingawful.com"]

    struct Ports {
        let plain: Int
        let tls: Int
        let admin: Int
    }

    static func config(in folder: TemporaryDirectory, pebble: PebbleCA, ports: Ports) throws -> String {
        var config = try EditableConfig(in: folder)
        config.set("server.listen", to: .object([JSONMember("address", "127.0.0.1"), JSONMember("port", .number(JSONNumber(ports.plain)))]))
        config.set("server.limits.threads", to: 2)
        config.set("server.pidFile", to: "linkhost.pid")
        config.set(
            "server.admin",
            to: .object([JSONMember("listen", .object([JSONMember("address", "127.0.0.1"), JSONMember("port", .number(JSONNumber(ports.admin)))]))]))
        config.set(
            "server.tls",
            to: .object([
                JSONMember("port", .number(JSONNumber(ports.tls))),
                JSONMember(
                    "acme",
                    .object([
                        JSONMember("directory", .string(pebble.directoryURL)), JSONMember("email", "ops@rowhni.com"), JSONMember("agreeToTerms", true),
                        JSONMember("caCertificate", .string(pebble.files.caFile)), JSONMember("storage", "acme"),
                    ])),
            ]))
        config.set("log.database", to: "log.sqlite")
        return try config.write()
    }

    static func linkhost(_ arguments: [String], admin: Bool = false, timeoutSeconds: Double = 60) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run(
            ProjectPaths.linkhostBinary, arguments, environment: admin ? AdminHealth.environment : ProcessInfo.processInfo.environment,
            timeoutSeconds: timeoutSeconds)
    }

    /// The expiry curl sees for `host` on the HTTPS port (its "expire date" line: each certificate
    /// Pebble issues has its own), verified against Pebble's root; `nil` when the handshake or the
    /// verification fails.
    static func servedSerial(_ host: String, port: Int, root: String) throws -> String? {
        let run = try ChildProcess.run(
            "curl",
            ["-sv", "--max-time", "3", "--cacert", root, "--resolve", "\(host):\(port):127.0.0.1", "https://\(host):\(port)/healthz", "-o", "/dev/null"])
        guard run.status == 0 else { return nil }
        let line = run.error.split(separator: "\n").first { $0.contains("expire date:") }
        return line.map(String.init) ?? "verified"
    }

    static func certificates(_ config: String) throws -> [JSONValue] {
        let run = try linkhost(["certificates", "--config", config, "--json"])
        guard run.status == 0, let document = try? JSONParser().parse(Array(run.output.utf8)) else { return [] }
        return document["certificates"]?.arrayElements ?? []
    }

    @Test func issuesForTheShippedHostsRenewsAndRestartsWithTheCADown() throws {
        guard PebbleCA.isInstalled else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("pebble is missing; scripts/test installs it") }
            print("skipped: pebble is not installed (Debian package pebble)")
            return
        }
        let folder = try TemporaryDirectory("acme-serve")
        let ports = Ports(plain: try FreePort.find(), tls: try FreePort.find(), admin: try FreePort.find())
        let pebble = try PebbleCA(in: folder, httpPort: ports.plain)
        defer { pebble.stop() }
        let config = try Self.config(in: folder, pebble: pebble, ports: ports)
        var serve = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", config], environment: AdminHealth.environment)
        defer {
            serve.send(signal: SIGTERM)
            _ = serve.waitForExit(timeoutSeconds: 30)
        }
        #expect(serve.waitForOutput(containing: "listening on http://"), "\(serve.standardError)")

        // Issued in the background: each host's certificate names it, from Pebble's intermediate.
        let started = Date()
        let issued = waitUntil(timeoutSeconds: 90) {
            let rows = (try? Self.certificates(config)) ?? []
            return rows.count == 3 && rows.allSatisfy { $0["serial"]?.stringValue != nil && $0["lastError"] == .null }
        }
        try #require(issued, "not issued:\n\(serve.standardError)\n\(pebble.logs)")
        let rows = try Self.certificates(config)
        print("linkhost got certificates for \(Self.hosts.count) hosts in \(Date().timeIntervalSince(started)) s")
        #expect(rows.map { $0["host"]?.stringValue } == Self.hosts)
        #expect(rows.allSatisfy { $0["source"]?.stringValue == "acme" && $0["issuer"]?.stringValue?.contains("Pebble Intermediate CA") == true })
        #expect(rows.allSatisfy { $0["notAfter"]?.stringValue != nil && $0["nextRenewal"]?.stringValue != nil })
        for (host, site) in [("rowhni.com", "rowhni"), ("forums.somethingawful.com", "awful"), ("archives.somethingawful.com", "awful")] {
            let names = try ChildProcess.run(
                "openssl", ["x509", "-noout", "-ext", "subjectAltName", "-in", folder.path + "/acme/certificates/\(site)/certificate.pem"])
            #expect(names.output.contains("DNS:\(host)"), "\(names.output)")
        }

        // Served over HTTPS and verified against Pebble's root, read from its management API.
        let root = folder.path + "/pebble-root.pem"
        let fetched = try ChildProcess.run("curl", ["-s", "--cacert", pebble.files.caFile, pebble.rootURL, "-o", root])
        try #require(fetched.status == 0)
        // Each host gets its own site's certificate by SNI: curl checks the name against it.
        for host in Self.hosts {
            #expect(waitUntil(timeoutSeconds: 10) { (try? Self.servedSerial(host, port: ports.tls, root: root)) != nil }, "\(host)")
        }
        let before = rows[0]["serial"]?.stringValue

        // Renewed through the admin API; the command waits until the new one is served. Meanwhile
        // new TLS connections, one after another on three threads: none may fail.
        let load = try HandshakeLoad(port: ports.tls, serverName: "forums.somethingawful.com", in: folder)
        #expect(load.waitForHandshakes(20), "\(load.output)")
        let renewed = try Self.linkhost(["certificates", "renew", "--config", config, "--timeout", "60"], admin: true, timeoutSeconds: 90)
        let underLoad = load.stop()
        print("handshakes during certificates renew: \(underLoad.map(String.init(describing:)) ?? load.output)")
        #expect(underLoad?.failed == 0, "\(load.output)")
        #expect(renewed.status == 0, "\(renewed.output)\(renewed.error)\n\(serve.standardError)")
        #expect(renewed.output.contains("asked the server to renew"))
        #expect(renewed.output.contains("rowhni.com: serves the new certificate"))
        #expect(try Self.certificates(config).first?["serial"]?.stringValue != before)
        #expect(try Self.servedSerial("rowhni.com", port: ports.tls, root: root) != nil)
        // HTTP-01 answered on the plain listener, never logged as a hit.
        let stats = try Self.linkhost(["log", "--config", config, "--format", "json"])
        #expect(!stats.output.contains("acme-challenge"), "\(stats.output.prefix(400))")

        // Restart with the CA down, without the admin token: the stored certificate is served at once.
        serve.send(signal: SIGTERM)
        #expect(serve.waitForExit(timeoutSeconds: 30) == 0)
        pebble.stopCA()
        let restarted = ContinuousClock.now
        serve = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", config])
        let servedAgain = waitUntil(timeoutSeconds: 5) { (try? Self.servedSerial("rowhni.com", port: ports.tls, root: root)) != nil }
        let elapsed = ContinuousClock.now - restarted
        print("with the CA down, the stored certificate was served \(elapsed) after the restart")
        #expect(servedAgain && elapsed < .seconds(5), "\(serve.standardError)")

        // A renewal by signal (server.pidFile) fails with the reason while the CA is down.
        let refused = try Self.linkhost(["certificates", "renew", "--config", config, "--timeout", "3"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("sent SIGUSR1"))
        #expect(refused.error.contains("does not answer"), "\(refused.error)")
        let listed = try Self.linkhost(["certificates", "--config", config])
        #expect(listed.output.contains("last error: no answer from \(pebble.directoryURL)"), "\(listed.output)")

        // The CA back (a new Pebble, which knows neither the account nor the order): a renewal by
        // signal registers again and serves the new certificate.
        try pebble.start()
        let recovered = try Self.linkhost(["certificates", "renew", "--config", config, "--timeout", "60"], timeoutSeconds: 90)
        #expect(recovered.status == 0, "\(recovered.output)\(recovered.error)\n\(serve.standardError)")
        #expect(recovered.output.contains("rowhni.com: serves the new certificate"))
    }

    /// With Pebble's certificates valid for 30 s, linkhost renews each by itself at two thirds of
    /// its lifetime, and HTTPS serves the new one without a restart.
    @Test func renewsByItselfBeforeExpiry() throws {
        guard PebbleCA.isInstalled else { return }
        let folder = try TemporaryDirectory("acme-renewal")
        let ports = Ports(plain: try FreePort.find(), tls: try FreePort.find(), admin: try FreePort.find())
        let pebble = try PebbleCA(in: folder, httpPort: ports.plain, validitySeconds: 30)
        defer { pebble.stop() }
        let config = try Self.config(in: folder, pebble: pebble, ports: ports)
        let serve = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", config])
        defer {
            serve.send(signal: SIGTERM)
            _ = serve.waitForExit(timeoutSeconds: 30)
        }
        let root = folder.path + "/pebble-root.pem"
        #expect(try ChildProcess.run("curl", ["-s", "--cacert", pebble.files.caFile, pebble.rootURL, "-o", root]).status == 0)
        var first: String?
        #expect(
            waitUntil(timeoutSeconds: 60) {
                first = try? Self.servedSerial("rowhni.com", port: ports.tls, root: root)
                return first != nil
            }, "\(serve.standardError)")
        let started = Date()
        let renewed = waitUntil(timeoutSeconds: 40) {
            guard let now = try? Self.servedSerial("rowhni.com", port: ports.tls, root: root) else { return false }
            return now != first
        }
        print("a 30 s certificate was replaced by itself after \(Date().timeIntervalSince(started)) s more")
        #expect(renewed, "\(serve.standardError)")
        let rows = try Self.certificates(config)
        #expect(rows.allSatisfy { $0["lastError"] == .null }, "\(rows)")
    }
}
