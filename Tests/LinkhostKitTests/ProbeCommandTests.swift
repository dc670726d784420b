import Foundation
import OrderedJSON
import TestSupport
import Testing

/// `linkhost probe` against a running `serve`: the public status, as the container's check reads
/// it, and `--details`, the health report from the admin listener with the admin token, found
/// through the config's `server.admin`.
@Suite("linkhost probe", .ownThread, .serialized)
struct ProbeCommandTests {
    /// This process's environment without an admin token, so only the config's counts.
    static var environmentWithoutToken: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LINKHOST_ADMIN_TOKEN"] = nil
        return environment
    }

    static func probe(_ arguments: [String], environment: [String: String] = environmentWithoutToken) throws -> (
        status: Int32, output: String, error: String
    ) {
        try ChildProcess.run(ProjectPaths.linkhostBinary, ["probe"] + arguments, environment: environment)
    }

    /// The shipped config in `folder` on loopback, its log beside it, with `admin` as `server.admin`.
    static func config(in folder: TemporaryDirectory, admin: JSONValue?) throws -> EditableConfig {
        var config = try EditableConfig(in: folder)
        config.set("server.listen", to: .object([JSONMember("address", "127.0.0.1"), JSONMember("port", 0)]))
        config.set("server.limits.threads", to: 2)
        config.set("log.database", to: "log.sqlite")
        if let admin { config.set("server.admin", to: admin) }
        try config.write()
        return config
    }

    /// `server.admin` on `port` of loopback with the test token in a file of `folder`.
    static func admin(port: Int, in folder: TemporaryDirectory, tls: Bool = false) throws -> JSONValue {
        let tokenFile = try folder.write("admin.token", AdminHealth.token + "\n")
        #expect(chmod(tokenFile, 0o600) == 0)
        return .object([
            JSONMember("listen", .object([JSONMember("address", "127.0.0.1"), JSONMember("port", .number(JSONNumber(port)))])),
            JSONMember("tokenFile", "admin.token"), JSONMember("tls", .bool(tls)),
        ])
    }

    @Test func detailsComeFromTheAdminListenerTheConfigNamesWithItsTokenFile() throws {
        let folder = try TemporaryDirectory()
        let adminPort = try FreePort.find()
        var config = try Self.config(in: folder, admin: try Self.admin(port: adminPort, in: folder))
        let server = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", config.file], environment: Self.environmentWithoutToken)
        #expect(try AdminHealth(of: server).port == adminPort)
        let line = server.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        let port = try #require(Int(line.split(separator: ":").last ?? ""))

        // The public status, as the container's HEALTHCHECK reads it: no path of the server's.
        let status = try Self.probe(["http://127.0.0.1:\(port)/healthz"])
        #expect(status.status == 0 && status.output == "200\n", "\(status.error)")
        let published = try RawHTTPClient(port: port).request("GET", "/healthz", host: "rowhni.com")
        #expect(try JSONParser().parse(published.body) == .object([JSONMember("status", "ok")]))
        #expect(!published.text.contains(folder.path))

        // The details, as text and as JSON, from the listener and with the token the config names.
        let text = try Self.probe(["--details", "--config", config.file])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("status: ok\n"), "\(text.output)")
        #expect(text.output.contains("\n  database: \(folder.path)/log.sqlite\n"), "\(text.output)")
        #expect(text.output.contains("\n  journal:\n    path: \(folder.path)/log.sqlite.hits-journal\n"), "\(text.output)")
        #expect(text.output.contains("\n  - id: rowhni\n    hosts: rowhni.com\n"), "\(text.output)")
        let json = try Self.probe(["--details", "--json", "--config", config.file])
        #expect(json.status == 0, "\(json.error)")
        let report = try JSONParser().parse(Array(json.output.utf8))
        #expect(report["log"]?["database"] == .string(folder.path + "/log.sqlite"))
        #expect(report.objectMembers?.map(\.key) == ["status", "version", "uptimeSeconds", "sites", "reload", "http", "log"])

        // Only server.admin of the file is read: a config the server would refuse still leads there.
        config.addRule(EditableConfig.joinEventRule().setting("path", to: "joinevent"))
        try config.write()
        #expect(try Self.probe(["--details", "--config", config.file]).status == 0)

        // A token that is not the server's is refused, and said so.
        var wrong = Self.environmentWithoutToken
        wrong["LINKHOST_ADMIN_TOKEN"] = "not-the-server-token-0123"
        let refused = try Self.probe(["--details", "http://127.0.0.1:\(adminPort)/healthz"], environment: wrong)
        #expect(refused.status == 1)
        #expect(refused.error.contains("refused the admin token (401)"), "\(refused.error)")
        #expect(!refused.error.contains("not-the-server-token-0123"))

        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 30) == 0)
    }

    @Test func detailsWithoutAnAdminListenerSayHowToConfigureOne() throws {
        let folder = try TemporaryDirectory()
        let config = try Self.config(in: folder, admin: nil)
        let none = try Self.probe(["--details", "--config", config.file])
        #expect(none.status == 2)
        for words in ["--details", "admin listener", "LINKHOST_ADMIN_TOKEN", "server.admin.tokenFile", "(server.admin)", config.file] {
            #expect(none.error.contains(words), "\(none.error)")
        }
        #expect(none.output.isEmpty)
        // An admin listener over HTTPS, which probe does not speak, and one on a port picked at start.
        let tls = try Self.config(in: folder, admin: try Self.admin(port: 9090, in: folder, tls: true))
        let secure = try Self.probe(["--details", "--config", tls.file])
        #expect(secure.status == 2)
        #expect(secure.error.contains("server.admin.tls is on"), "\(secure.error)")
        let picked = try Self.config(in: folder, admin: try Self.admin(port: 0, in: folder))
        let unknown = try Self.probe(["--details", "--config", picked.file])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("server.admin.listen.port is 0"), "\(unknown.error)")
        // --json and --config belong to --details.
        #expect(try Self.probe(["--json"]).status == 64)
        #expect(try Self.probe(["--config", config.file]).status == 64)
    }
}
