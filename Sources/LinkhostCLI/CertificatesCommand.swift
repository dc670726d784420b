import ArgumentParser
import CertificateIssuing
import CurlHTTP
import Foundation
import Glibc
import LinkhostKit

/// `linkhost certificates`: each host's certificate (source, issuer, serial, expiry, next renewal,
/// last error), and `certificates renew` to make the running server renew its ACME certificates now.
struct CertificatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certificates",
        abstract: "Show each host's certificate, or renew the ACME ones now.",
        subcommands: [CertificatesListCommand.self, CertificatesRenewCommand.self],
        defaultSubcommand: CertificatesListCommand.self
    )

    /// The signal `serve` renews on when no admin listener runs.
    static let renewSignal = SIGUSR1
}

struct CertificatesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Each host's certificate: source (acme or file), issuer, serial, not-after, next renewal, last error.",
        discussion: "Read from the ACME storage (server.tls.acme.storage) or the certificate file; the server need not run."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let inventory = CertificateInventory(configuration: try CLIConfig.load(configOptions.config))
        if json {
            StandardOutput.write(bytes: inventory.json.serialized(.pretty(indent: 2)) + [0x0A])
        } else {
            StandardOutput.write(inventory.text)
        }
    }
}

struct CertificatesRenewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "renew",
        abstract: "Make the running server renew every ACME certificate now, and wait until HTTPS serves the new one.",
        discussion: """
            Asks through the admin API (POST /api/v1/certificates/renew with the admin token, \(AdminToken.variable) or \
            server.admin.tokenFile) when the admin listener is configured, else sends SIGUSR1 to the pid in server.pidFile. \
            Then reads the certificate HTTPS serves for each host until it is a new one. Exit status: 0 served, 1 not \
            served in time (the reason is printed), 2 nothing to ask (no ACME, no admin token and no pid file).
            """
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("How long to wait for the new certificate, in seconds.", valueName: "n"))
    var timeout: Int = 300

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout \(timeout) must be more than 0") }
    }

    func run() async throws {
        let configuration = try CLIConfig.load(configOptions.config)
        guard let tls = configuration.server.tls, tls.acme != nil else {
            throw CLIFailure.unusableInput(
                "\(configOptions.config): server.tls.acme is not configured, so no certificate is renewed by linkhost; add \"acme\" to server.tls")
        }
        let address = ["0.0.0.0", "::", ""].contains(configuration.server.listenAddress) ? "127.0.0.1" : configuration.server.listenAddress
        let hosts = configuration.sites.flatMap(\.hosts)
        let reader = ServedCertificateReader(address: address, port: tls.port)
        let before = await reader.serials(for: hosts)
        try await ask(configuration)
        let deadline = ContinuousClock.now + .seconds(timeout)
        var served: [String: String] = [:]
        while ContinuousClock.now < deadline {
            served = await reader.serials(for: hosts)
            if hosts.allSatisfy({ served[$0] != nil && served[$0] != before[$0] }) {
                for host in hosts { StandardOutput.write("\(host): serves the new certificate, serial \(served[host]!)\n") }
                return
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        let reasons = CertificateInventory(configuration: configuration).rows.compactMap { row in
            row.record?.lastError.map { "\(row.host): \($0)" + (row.record?.lastErrorFix.map { " (fix: \($0))" } ?? "") }
        }
        let stale = hosts.filter { served[$0] == nil || served[$0] == before[$0] }
        throw CLIFailure.runtime(
            "no new certificate served for \(stale.joined(separator: ", ")) on port \(tls.port) within \(timeout) s"
                + (reasons.isEmpty ? "" : ":\n  " + Array(Set(reasons)).sorted().joined(separator: "\n  ")))
    }

    /// The admin API when it runs, else the signal; refused with the fix when neither is configured.
    private func ask(_ configuration: LinkhostConfiguration) async throws {
        let admin = configuration.server.admin
        let token: AdminToken?
        do {
            token = try AdminToken.resolve(environment: ProcessInfo.processInfo.environment, settings: admin)
        } catch {
            throw CLIFailure.unusableInput("\(error)")
        }
        if let token {
            let host = ["0.0.0.0", "::"].contains(admin.listenAddress) ? "127.0.0.1" : admin.listenAddress
            let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(admin.port)/api/v1/certificates/renew"
            let request = CurlHTTPRequest(
                method: .post, url: url, headers: [("Authorization", "Bearer " + String(decoding: token.bytes, as: UTF8.self))])
            do {
                let response = try await CurlHTTPClient().send(request)
                guard response.status == 202 else {
                    throw CLIFailure.runtime("the admin listener (\(url)) refused the renewal: HTTP \(response.status) \(response.bodyText)")
                }
            } catch let error as CurlHTTPError {
                throw CLIFailure.runtime("the admin listener (\(url), server.admin.listen) does not answer: \(error); is linkhost serve running?")
            }
            StandardOutput.write("asked the server to renew (\(url))\n")
            return
        }
        guard let pidPath = configuration.server.pidFile else {
            throw CLIFailure.unusableInput(
                "no way to reach the running server: set \(AdminToken.variable) (or server.admin.tokenFile) for the admin listener, or server.pidFile for a signal"
            )
        }
        let pid: pid_t
        do {
            pid = try PIDFile(path: pidPath).runningServer()
        } catch {
            throw error.isUnusableInput ? CLIFailure.unusableInput(error.description) : CLIFailure.runtime(error.description)
        }
        guard kill(pid, CertificatesCommand.renewSignal) == 0 else {
            throw CLIFailure.runtime("cannot signal process \(pid): \(String(cString: strerror(errno)))")
        }
        StandardOutput.write("sent SIGUSR1 to linkhost (pid \(pid)) to renew\n")
    }
}

/// Reads the leaf certificate HTTPS serves for a host name (sent as SNI and Host), connecting to
/// the server's own address: what clients get, whatever the DNS says.
struct ServedCertificateReader {
    let address: String
    let port: Int

    func serials(for hosts: [String]) async -> [String: String] {
        var serials: [String: String] = [:]
        let client = CurlHTTPClient(configuration: CurlHTTPConfiguration(connectTimeout: .seconds(2), timeout: .seconds(5)))
        for host in hosts {
            var request = CurlHTTPRequest(method: .head, url: "https://\(host):\(port)/healthz")
            request.connectTo = ["\(host):\(port):\(address):\(port)"]
            request.readsPeerCertificates = true
            request.verifiesPeer = false
            if let response = try? await client.send(request), let leaf = response.peerCertificatesPEM.first, let facts = CertificateFacts(pem: leaf) {
                serials[host] = facts.serial
            }
        }
        return serials
    }
}
