import ArgumentParser
import Foundation
import LinkhostKit
import Logging

/// `linkhost serve`: check the config, listen, serve until SIGTERM/SIGINT, stop gracefully.
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

    @Option(name: .long, help: ArgumentHelp("The hit log's SQLite file, overriding log.database.", valueName: "path"))
    var logDb: String?

    @Option(name: .long, help: "How much to log.")
    var logLevel: LogLevelOption = .info

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port \(port) is outside 0...65535")
        }
        if let tlsPort, !(0...65535).contains(tlsPort) {
            throw ValidationError("--tls-port \(tlsPort) is outside 0...65535")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither")
        }
    }

    func run() async throws {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "linkhost")

        var configuration: LinkhostConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: configOptions.config)
        } catch {
            throw CLIFailure.unusableInput("the config cannot be used; nothing was started.\n\(error)")
        }
        if let logDb { configuration.log.databasePath = logDb }
        if let port { configuration.server.port = port }
        if let host { configuration.server.listenAddress = host }
        if let tlsCert, let tlsKey {
            switch TLSSettings.load(certificatePath: tlsCert, keyPath: tlsKey) {
            case .success(let pem):
                var tls = configuration.server.tls ?? TLSSettings(certificatePath: tlsCert, keyPath: tlsKey, certificatePEM: pem.certificate, keyPEM: pem.key)
                tls.certificatePath = tlsCert
                tls.keyPath = tlsKey
                tls.certificatePEM = pem.certificate
                tls.keyPEM = pem.key
                configuration.server.tls = tls
            case .failure(let failure):
                throw CLIFailure.unusableInput("\(failure.which == .certificate ? "--tls-cert" : "--tls-key"): \(failure.problem); `linkhost dev-cert --host <name>` makes a certificate and key")
            }
        }
        if let tlsPort {
            guard configuration.server.tls != nil else {
                throw CLIFailure.unusableInput("--tls-port needs a certificate: give --tls-cert and --tls-key, or server.tls in the config")
            }
            configuration.server.tls?.port = tlsPort
        }

        // Caught from here on: a signal that comes as soon as "listening" is printed still stops
        // the server gracefully.
        let signals = TerminationSignal.install()
        let server: LinkhostServer
        do {
            server = try LinkhostServer(configuration: configuration, logger: logger)
            try server.start()
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        StandardOutput.write(StartupBanner(server: server).text)
        logger.info("serving", metadata: ["port": "\(server.port)", "sites": "\(configuration.sites.map(\.id).joined(separator: ","))"])

        let received = await signals.wait()
        logger.info("stopping", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
        let log = server.stop()
        let statistics = server.statistics
        logger.info("stopped", metadata: ["responsesSent": "\(statistics.responsesSent)", "cutShort": "\(statistics.exchangesCutShort)"])
        let count = statistics.responsesSent
        var summary = "linkhost stopped after \(count) \(count == 1 ? "response" : "responses")"
        if let log {
            summary += "; log: \(log.written) \(log.written == 1 ? "row" : "rows") written to \(log.databasePath), \(log.dropped) dropped, \(log.abandonedAtStop) not written"
            if let error = log.lastError, !log.isHealthy { summary += " (database failing: \(error))" }
        }
        StandardOutput.write(summary + "\n")
    }
}
