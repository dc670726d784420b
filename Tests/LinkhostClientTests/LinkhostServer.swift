import Foundation
import LinkhostClient
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `linkhost` binary serving the shipped config on a loopback port, with an ingest key
/// in its environment (and in no other process's), logging into a temporary folder.
final class LinkhostServer: Sendable {
    let process: ChildProcess
    let port: Int
    let folder: TemporaryDirectory

    /// Starts `linkhost serve` on `port` with `LINKHOST_INGEST_KEY=ingestKey` and waits until it
    /// listens. Any `LINKHOST_INGEST_KEY…` of the test's own environment is left out.
    init(port: Int, ingestKey: String, folder: TemporaryDirectory? = nil) throws {
        let folder = try folder ?? TemporaryDirectory("linkhost-client")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LINKHOST_INGEST_KEY") }
        environment["LINKHOST_INGEST_KEY"] = ingestKey
        let arguments = [
            "serve", "--config", ProjectPaths.shippedConfig, "--host", "127.0.0.1", "--port", "\(port)", "--log-db", folder.path + "/log.sqlite",
        ]
        process = try ChildProcess(ProjectPaths.linkhostBinary, arguments, environment: environment)
        self.port = port
        self.folder = folder
        guard process.waitForOutput(containing: "listening on http://127.0.0.1:\(port)") else {
            Issue.record("linkhost serve did not start: \(process.standardError)")
            process.send(signal: SIGKILL)
            _ = process.waitForExit()
            throw CancellationError()
        }
    }

    /// Stops the server by its process id (SIGTERM: it drains the hit log) and returns its status.
    @discardableResult
    func stop() -> Int32? {
        process.send(signal: SIGTERM)
        return process.waitForExit(timeoutSeconds: 15)
    }

    /// A client for `https://rowhni.com` that reaches this server: the base URL is the loopback
    /// address and port, and the session sends `Host: rowhni.com`, which is how the server picks
    /// the site (as it would behind the site's real DNS name and TLS terminator).
    func rowhniClient(key: String, retryPolicy: RetryPolicy = .standard) -> LinkhostClient {
        Self.rowhniClient(port: port, key: key, retryPolicy: retryPolicy)
    }

    /// The same client for a port where no server may be listening yet.
    static func rowhniClient(port: Int, key: String, retryPolicy: RetryPolicy = .standard) -> LinkhostClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Host": "rowhni.com"]
        return LinkhostClient(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, ingestKey: key, session: URLSession(configuration: configuration), retryPolicy: retryPolicy)
    }

    /// How many responses the server sent in all (refused reports included, which the hit log
    /// leaves out), from the line it prints when it stops; `nil` while it runs or if the line is
    /// missing.
    var responsesSent: Int? {
        guard !process.isRunning else { return nil }
        let line = process.standardOutput.split(separator: "\n").first { $0.hasPrefix("linkhost stopped after ") }
        return line.flatMap { Int($0.dropFirst("linkhost stopped after ".count).prefix { $0.isNumber }) }
    }

    /// The hit log's `app_open` rows (accepted reports), read with `linkhost log` once stopped.
    func appOpenRows() throws -> [[String: Any]] {
        let result = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["log", "--db", folder.path + "/log.sqlite", "--kind", "app_open", "--format", "json", "--limit", "1000"])
        #expect(result.status == 0, "\(result.error)")
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
    }
}
