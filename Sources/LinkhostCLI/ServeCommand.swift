import ACME
import ArgumentParser
import CertificateIssuing
import Foundation
import Glibc
import HTTPServing
import LinkhostAdmin
import LinkhostKit
import Logging
import ProcessSignals

/// `linkhost serve`: check the config, listen, serve until SIGTERM/SIGINT, stop gracefully; on
/// SIGHUP read the config again and serve it if every check passes.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the AASA files and link pages of every site in the config."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("Port to listen on, overriding server.listen.port (0 picks a free one).", valueName: "n"))
    var port: Int?

    @Option(name: .long, help: ArgumentHelp("IP address to listen on, overriding server.listen.address (0.0.0.0, ::, 127.0.0.1, ...).", valueName: "addr"))
    var host: String?

    @Option(name: .long, help: ArgumentHelp("PEM certificate chain: serve HTTPS (overrides server.tls.certificate).", valueName: "path"))
    var tlsCert: String?

    @Option(name: .long, help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "path"))
    var tlsKey: String?

    @Option(name: .long, help: ArgumentHelp("HTTPS port (default: server.tls.port, else 8443).", valueName: "n"))
    var tlsPort: Int?

    @Option(name: .long, help: ArgumentHelp("The hit log's SQLite file or postgresql:// URL, overriding log.database.", valueName: "path"))
    var logDb: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Port of the admin listener (API, dashboard, metrics), overriding server.admin.listen.port; it runs only with an admin token.",
            valueName: "n"))
    var adminPort: Int?
    @Option(name: .long, help: ArgumentHelp("Write the process id here, overriding server.pidFile (for linkhost reload).", valueName: "path"))
    var pidFile: String?

    @Option(name: .long, help: "How much to log.")
    var logLevel: LogLevelOption = .info

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port \(port) is outside 0...65535")
        }
        if let adminPort, !(0...65535).contains(adminPort) {
            throw ValidationError("--admin-port \(adminPort) is outside 0...65535")
        }
        if let tlsPort, !(0...65535).contains(tlsPort) {
            throw ValidationError("--tls-port \(tlsPort) is outside 0...65535")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither")
        }
    }

    /// The flags that replace config settings, checked with the rest of the config.
    private var overrides: ConfigurationOverrides {
        var overrides = ConfigurationOverrides()
        overrides.port = port.map { .init($0, from: "--port") }
        overrides.listenAddress = host.map { .init($0, from: "--host") }
        overrides.tlsCertificate = tlsCert.map { .init($0, from: "--tls-cert") }
        overrides.tlsKey = tlsKey.map { .init($0, from: "--tls-key") }
        overrides.tlsPort = tlsPort.map { .init($0, from: "--tls-port") }
        overrides.databasePath = logDb.map { .init($0, from: "--log-db") }
        overrides.adminPort = adminPort.map { .init($0, from: "--admin-port") }
        overrides.pidFile = pidFile.map { .init($0, from: "--pid-file") }
        return overrides
    }

    func run() async throws {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "linkhost")
        // Process-wide settings a server needs, made here rather than by the libraries: writing to a
        // socket the peer closed must not end the process (libmicrohttpd avoids SIGPIPE itself; the
        // PostgreSQL and CDN clients might not), and every connection is a file descriptor, while the
        // usual soft limit (1024) is below the default connection limit.
        signal(SIGPIPE, SIG_IGN)
        FileDescriptorLimit.raiseSoftLimitToHard()

        // A reload reads the same file with the same flags and environment as this start.
        let source = ConfigurationSource(path: configOptions.config, overrides: overrides, environment: ProcessInfo.processInfo.environment)
        let configuration: LinkhostConfiguration
        do {
            configuration = try source.configuration()
        } catch {
            throw CLIFailure.unusableInput("the config cannot be used; nothing was started.\n\(error)")
        }

        // Keys come from the environment only, so they never sit in a config file or in git.
        let ingestKeys: IngestKeys
        do {
            ingestKeys = try source.ingestKeys(siteIDs: configuration.sites.map(\.id))
        } catch {
            throw CLIFailure.unusableInput("\(error)")
        }

        let adminToken: AdminToken?
        do {
            adminToken = try AdminToken.resolve(environment: ProcessInfo.processInfo.environment, settings: configuration.server.admin)
        } catch {
            throw CLIFailure.unusableInput("\(error)")
        }

        // Caught from here on: a signal that comes as soon as "listening" is printed (or the pid
        // file exists) still stops the server gracefully, or reloads it.
        let signals: TerminationSignal
        let hangups: HangupSignal
        let renewals: HangupSignal
        do {
            signals = try TerminationSignal.install()
            hangups = try HangupSignal.install()
            renewals = try HangupSignal.install(CertificatesCommand.renewSignal)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        // What `/metrics` shows; the server records into it whether or not the admin listener runs.
        let metrics = PrometheusMetrics()
        // Claimed first: a second server on the same files is told about the first by its pid,
        // before it touches the log's journal (which one process holds at a time) or a port.
        let pidFile = configuration.server.pidFile.map { PIDFile(path: $0) }
        do {
            try pidFile?.claim()
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        // Sockets a service manager passed (socket activation) serve instead of binding the config's.
        let passed: PassedSockets
        do {
            passed = try PassedSockets.takeFromEnvironment(ProcessInfo.processInfo.environment)
        } catch {
            pidFile?.release()
            throw CLIFailure.unusableInput("\(error) (socket activation; nothing was started)")
        }
        // A passed socket no listener would serve is a unit that does not match the config: its
        // connections would wait in a backlog forever.
        let unserved = [
            passed.https != nil && configuration.server.tls == nil ? "https (server.tls is not set)" : nil,
            passed.http != nil && configuration.server.tls?.plainHTTP == .off ? "http (server.tls.http is \"off\")" : nil,
            passed.admin != nil && adminToken == nil ? "admin (no admin token: set \(AdminToken.variable) or server.admin.tokenFile)" : nil,
        ].compactMap { $0 }
        if !unserved.isEmpty {
            pidFile?.release()
            throw CLIFailure.unusableInput(
                "the service manager passed a socket no listener serves: \(unserved.joined(separator: ", ")); remove it from the .socket unit or configure that listener"
            )
        }
        let server: LinkhostServer
        let acme = configuration.server.tls?.acme
        let challenges = acme.map { _ in ACMEHTTP01Tokens() }
        var certificates: CertificateManager?
        do {
            server = try LinkhostServer(
                configuration: configuration, ingestKeys: ingestKeys, metricsFactory: metrics.factory, logger: logger, passedSockets: passed,
                acmeChallenges: challenges)
            // The stored certificates first, from disk only: a start never waits on the CA.
            if let acme, let challenges {
                certificates = try await ACMEServing.manager(for: configuration, acme: acme, server: server, tokens: challenges, logger: logger)
            }
            try server.start()
            await certificates?.start()
        } catch let failure as ExitCode {
            pidFile?.release()
            throw failure
        } catch {
            pidFile?.release()
            throw CLIFailure.runtime("\(error)")
        }
        var admin: AdminServer?
        if let adminToken {
            do {
                let started = try AdminServer(server: server, token: adminToken, metrics: metrics, logger: logger, passedSocket: passed.admin)
                try started.start()
                admin = started
            } catch {
                server.stop()
                pidFile?.release()
                let settings = configuration.server.admin
                throw CLIFailure.runtime("the admin listener on \(settings.listenAddress):\(settings.port) (server.admin.listen) cannot start: \(error)")
            }
        }
        if let certificates {
            renewals.onHangup { Task { await certificates.renewNow() } }
        }
        let manager = ServiceManagerNotifier(environment: ProcessInfo.processInfo.environment)
        hangups.onHangup {
            manager.notify("RELOADING=1", "STATUS=reloading the configuration")
            let outcome = server.reload(from: source)
            manager.notify(
                "READY=1",
                outcome.succeeded
                    ? "STATUS=serving configuration generation \(outcome.generation)"
                    : "STATUS=serving configuration generation \(outcome.generation); the last reload was refused: \(outcome.failure.map { "\($0)" } ?? "")")
        }
        StandardOutput.write(StartupBanner(server: server, ingestKeys: ingestKeys).text)
        if let admin {
            StandardOutput.write("admin (dashboard, /api/v1/, /metrics): \(admin.baseURL)\n")
            if !["127.0.0.1", "::1", "localhost"].contains(configuration.server.admin.listenAddress) {
                logger.warning(
                    configuration.server.admin.tls
                        ? "the admin listener is not on loopback (\(configuration.server.admin.listenAddress)): other machines can reach the dashboard, the API and the metrics; keep it behind a firewall or on 127.0.0.1 (server.admin.listen.address)"
                        : "the admin listener is reachable from other machines over plain HTTP; the token and the session cookie cross the network in clear (set server.admin.tls)"
                )
            }
        } else {
            StandardOutput.write("admin: off (set \(AdminToken.variable) or server.admin.tokenFile to serve the dashboard, API and metrics)\n")
        }
        logger.info("serving", metadata: ["port": "\(server.port)", "sites": "\(configuration.sites.map(\.id).joined(separator: ","))"])
        // Ready once every listener (the admin one too) is up and the banner is out.
        manager.notify("READY=1", "STATUS=serving configuration generation 1", "MAINPID=\(getpid())")
        let watchdog = manager.watchdogInterval.map { interval in
            Task.detached {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    manager.notify("WATCHDOG=1")
                }
            }
        }

        let received = await signals.wait()
        logger.info("stopping", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
        manager.notify("STOPPING=1", "STATUS=stopping: answering what is in flight, writing the log")
        watchdog?.cancel()
        admin?.stop()
        hangups.stop()
        renewals.stop()
        await certificates?.stop()
        let log = server.stop()
        pidFile?.release()
        let statistics = server.statistics
        logger.info("stopped", metadata: ["responsesSent": "\(statistics.responsesSent)", "cutShort": "\(statistics.exchangesCutShort)"])
        let count = statistics.responsesSent
        var summary = "linkhost stopped after \(count) \(count == 1 ? "response" : "responses")"
        if let log {
            summary +=
                "; log: \(log.written) \(log.written == 1 ? "row" : "rows") written to \(log.database), \(log.dropped) dropped, \(log.abandonedAtStop) not written"
            if let error = log.lastError, !log.isHealthy { summary += " (database failing: \(error))" }
        }
        StandardOutput.write(summary + "\n")
    }
}

/// Every connection is a file descriptor; the usual soft limit (1024) is below the default
/// connection limit, so `serve` raises its soft limit to the hard one before listening.
enum FileDescriptorLimit {
    static func raiseSoftLimitToHard() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
