import Foundation
import LinkLog
import LinkhostAdmin
import LinkhostKit
import OrderedJSON
import TestSupport

/// A linkhost server and its admin listener, with the shipped config, its hit log in a temporary
/// folder, and a known admin token. Tests ask both in-process (`publicRequest`, `adminRequest`,
/// `visit`, `admin`: the serving path but the socket); `listening` also starts both listeners on
/// ephemeral loopback ports, for what only a socket shows (`request(port:)`: streamed exports, a
/// browser, a Prometheus server scraping).
final class AdminHarness {
    static let token = "test-admin-token-5f1c9a2e77"

    let folder: TemporaryDirectory
    let server: LinkhostServer
    let admin: AdminServer
    var databasePath: String { folder.path + "/log.sqlite" }

    init(settings: [String: JSONValue] = [:], listening: Bool = true) throws {
        folder = try TemporaryDirectory("linkhost-admin")
        let configuration = try Self.configuration(in: folder, settings: settings)
        let metrics = PrometheusMetrics()
        server = try LinkhostServer(configuration: configuration, metricsFactory: metrics.factory)
        do {
            if listening { try server.start() }
            admin = try AdminServer(server: server, token: try requireToken(Self.token), metrics: metrics)
            if listening { try admin.start() }
        } catch {
            server.stop()
            throw error
        }
    }

    /// The shipped config on loopback and ephemeral ports, its hit log in `folder`, with `settings`
    /// and then `adjust` (for what a dotted path cannot name, such as each site's settings).
    static func configuration(
        in folder: TemporaryDirectory, settings: [String: JSONValue] = [:], adjust: (JSONValue) -> JSONValue = { $0 }
    ) throws -> LinkhostConfiguration {
        var document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig))))
        // An 8 MiB journal, as `shippedConfiguration` (the tests' files are in memory).
        var replaced: [String: JSONValue] = ["server.limits.threads": 2, "log.enabled": .bool(true), "log.journal.sizeBytes": 8_388_608]
        replaced.merge(settings) { _, given in given }
        for (path, value) in replaced { document = document.setting(path, to: value) }
        document = adjust(document)
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        overrides.adminPort = .init(0, from: "the test")
        overrides.databasePath = .init(folder.path + "/log.sqlite", from: "the test")
        return try ConfigurationLoader.parse(document.serialized(), source: ProjectPaths.shippedConfig, baseDirectory: ProjectPaths.root, overrides: overrides)
    }

    func stop() {
        admin.stop()
        server.stop()
    }

    /// One request on a new connection to `port` (of a listening harness).
    func request(
        port: Int, _ target: String, method: String = "GET", host: String = "127.0.0.1", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        return try client.request(method, target, host: host, headers: headers + [("Connection", "close")], body: body)
    }

    /// One request answered by the public side in this process.
    func publicRequest(
        _ target: String, method: String = "GET", host: String = "127.0.0.1", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> RawHTTPClient.Response {
        try InProcessClient { [server] in server.answer($0) }.request(method, target, host: host, headers: headers, body: body)
    }

    /// One request answered by the admin side in this process (with no token unless `headers` has one).
    func adminRequest(
        _ target: String, method: String = "GET", host: String = "127.0.0.1", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> RawHTTPClient.Response {
        try InProcessClient { [admin] in admin.answer($0) }.request(method, target, host: host, headers: headers, body: body)
    }

    /// A request to the admin side with the bearer token, in-process.
    func admin(_ target: String, headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try adminRequest(target, headers: [("Authorization", "Bearer \(Self.token)")] + headers)
    }

    /// A public request as a browser on an iPhone would send it, in-process.
    func visit(_ target: String, host: String = "rowhni.com", headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        let agent = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
        return try publicRequest(target, host: host, headers: [("User-Agent", agent)] + headers)
    }

    /// Waits until the writer has committed `rows` rows (the log is written in the background).
    func waitForRows(_ rows: Int, timeoutSeconds: Double = 60) throws {
        guard waitUntil(timeoutSeconds: timeoutSeconds, { (server.logStatus?.written ?? 0) >= rows }) else {
            throw HarnessError(description: "the log has \(server.logStatus?.written ?? 0) rows, not \(rows)")
        }
    }

    /// Runs the built `linkhost` binary.
    static func linkhost(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run(ProjectPaths.linkhostBinary, arguments, environment: environment)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// The test token as an `AdminToken` (it is long enough by construction).
func requireToken(_ text: String) throws -> AdminToken {
    guard let token = AdminToken(text) else { throw HarnessError(description: "the test token is unusable") }
    return token
}
