import Foundation
import Synchronization

/// Debian's Pebble ACME test CA with its mock DNS (pebble-challtestsrv answering 127.0.0.1 for
/// every name), started for one test: real HTTP-01 validation against `httpPort`, Pebble's default
/// 5 % of refused nonces kept, only its random pause before validating skipped
/// (`PEBBLE_VA_NOSLEEP`); never `PEBBLE_VA_ALWAYS_VALID`. Its own HTTPS certificate is made with
/// openssl for 127.0.0.1 (`caFile` trusts it).
public final class PebbleCA: Sendable {
    public let files: TestCertificateFiles
    public let acmePort: Int
    public let managementPort: Int
    public let httpPort: Int
    private let configFile: String
    private let dnsPort: Int
    private let dnsManagementPort: Int
    private let processes = ChildProcessBox()

    /// Whether `pebble` and `pebble-challtestsrv` are installed (scripts/test installs them).
    public static var isInstalled: Bool { Tool.find("pebble") != nil && Tool.find("pebble-challtestsrv") != nil }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameter validitySeconds: Pebble's `certificateValidityPeriod`; its default (years) when `nil`.
    public init(in folder: TemporaryDirectory, httpPort: Int, validitySeconds: Int? = nil) throws {
        files = try TestCertificateFiles(in: folder)
        acmePort = try FreePort.find()
        managementPort = try FreePort.find()
        dnsPort = try FreePort.find()
        dnsManagementPort = try FreePort.find()
        self.httpPort = httpPort
        let validity = validitySeconds.map { ", \"certificateValidityPeriod\": \($0)" } ?? ""
        configFile = try folder.write(
            "pebble.json",
            """
            {"pebble": {"listenAddress": "127.0.0.1:\(acmePort)", "managementListenAddress": "127.0.0.1:\(managementPort)",
              "certificate": "\(files.certificateFile)", "privateKey": "\(files.keyFile)",
              "httpPort": \(httpPort), "tlsPort": \(try FreePort.find()), "ocspResponderURL": "", "externalAccountBindingRequired": false\(validity)}}
            """)
        let dns = try ChildProcess(
            "pebble-challtestsrv",
            [
                "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "", "-dns01", "127.0.0.1:\(dnsPort)", "-http01", "", "-https01", "", "-tlsalpn01", "",
                "-management", "127.0.0.1:\(dnsManagementPort)",
            ])
        processes.set(dns: dns)
        try start()
    }

    public var directoryURL: String { "https://127.0.0.1:\(acmePort)/dir" }
    /// Pebble's root, from its management API (`/roots/0`).
    public var rootURL: String { "https://127.0.0.1:\(managementPort)/roots/0" }
    public var intermediateURL: String { "https://127.0.0.1:\(managementPort)/intermediates/0" }

    /// Starts Pebble (again, after `stopCA`): same ports, same config, a new CA key.
    public func start() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PEBBLE_VA_ALWAYS_VALID"] = nil
        environment["PEBBLE_WFE_NONCEREJECT"] = nil
        environment["PEBBLE_VA_NOSLEEP"] = "1"
        let pebble = try ChildProcess("pebble", ["-config", configFile, "-dnsserver", "127.0.0.1:\(dnsPort)"], environment: environment)
        processes.set(pebble: pebble)
        let dns = processes.dns
        let up = waitUntil(timeoutSeconds: 20) {
            guard pebble.isRunning, dns?.isRunning ?? false else { return true }
            return (pebble.standardOutput + pebble.standardError).contains("Listening on: 127.0.0.1:\(acmePort)")
                && ((dns?.standardOutput ?? "") + (dns?.standardError ?? "")).contains("Starting management server")
        }
        guard up, pebble.isRunning, dns?.isRunning ?? false else {
            stop()
            throw StartFailure(description: "Pebble did not start:\n\(logs)")
        }
    }

    /// Stops Pebble alone (the DNS stays): the CA down.
    public func stopCA() {
        guard let pebble = processes.pebble else { return }
        pebble.send(signal: SIGTERM)
        _ = pebble.waitForExit(timeoutSeconds: 10)
    }

    public func stop() {
        for child in [processes.pebble, processes.dns].compactMap({ $0 }) where child.isRunning {
            child.send(signal: SIGTERM)
            _ = child.waitForExit(timeoutSeconds: 10)
        }
    }

    public var logs: String {
        "pebble:\n\(processes.pebble?.standardOutput ?? "")\(processes.pebble?.standardError ?? "")\nchalltestsrv:\n"
            + "\(processes.dns?.standardOutput ?? "")\(processes.dns?.standardError ?? "")"
    }

    deinit { stop() }
}

/// The two child processes, Pebble's swapped when it restarts.
private final class ChildProcessBox: Sendable {
    private let children = Mutex<(pebble: ChildProcess?, dns: ChildProcess?)>((nil, nil))

    var pebble: ChildProcess? { children.withLock { $0.pebble } }
    var dns: ChildProcess? { children.withLock { $0.dns } }
    func set(pebble: ChildProcess) { children.withLock { $0.pebble = pebble } }
    func set(dns: ChildProcess) { children.withLock { $0.dns = dns } }
}
