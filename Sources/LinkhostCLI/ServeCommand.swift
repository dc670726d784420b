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

    @Option(name: .long, help: "How much to log.")
    var logLevel: LogLevelOption = .info

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port \(port) is outside 0...65535")
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
        if let port { configuration.server.port = port }
        if let host { configuration.server.listenAddress = host }

        let server: LinkhostServer
        do {
            server = try LinkhostServer(configuration: configuration, logger: logger)
            try server.start()
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        StandardOutput.write(StartupBanner(server: server).text)
        logger.info("serving", metadata: ["port": "\(server.port)", "sites": "\(configuration.sites.map(\.id).joined(separator: ","))"])

        let received = await TerminationSignal.wait()
        logger.info("stopping", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
        server.stop()
        let statistics = server.statistics
        logger.info("stopped", metadata: ["responsesSent": "\(statistics.responsesSent)", "cutShort": "\(statistics.exchangesCutShort)"])
        StandardOutput.write("linkhost stopped after \(statistics.responsesSent) responses\n")
    }
}
