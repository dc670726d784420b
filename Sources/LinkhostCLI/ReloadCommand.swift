import ArgumentParser
import Foundation
import Glibc
import LinkhostKit

/// `linkhost reload`: tell a running `linkhost serve` to read its configuration again (SIGHUP to
/// the process in its pid file), as `nginx -s reload` does.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make a running linkhost serve read its config again (SIGHUP to the pid in its pid file).",
        discussion: """
            The pid file is --pid-file, else server.pidFile of --config. The server checks the new config \
            as at start; if any check fails it keeps serving the old one. Either way it logs the outcome, \
            and /healthz shows it under "reload". Exit status: 0 signal sent, 1 no running linkhost to \
            signal, 2 no usable pid file.
            """
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("The pid file serve writes (server.pidFile or serve --pid-file).", valueName: "path"))
    var pidFile: String?

    func run() throws {
        let path: String
        if let pidFile {
            path = pidFile
        } else {
            do {
                guard let configured = try ConfigurationLoader.pidFile(inConfigAt: configOptions.config) else {
                    throw CLIFailure.unusableInput(
                        "\(configOptions.config) sets no server.pidFile; give the pid file with --pid-file, or set server.pidFile (serve writes it)")
                }
                path = configured
            } catch let error as ConfigurationError {
                throw CLIFailure.unusableInput("cannot find the pid file in the config; give it with --pid-file.\n\(error)")
            }
        }
        let file = PIDFile(path: path)
        let pid: pid_t
        do {
            pid = try file.runningServer()
        } catch {
            throw error.isUnusableInput ? CLIFailure.unusableInput(error.description) : CLIFailure.runtime(error.description)
        }
        guard kill(pid, SIGHUP) == 0 else {
            throw CLIFailure.runtime("cannot signal process \(pid): \(String(cString: strerror(errno)))")
        }
        StandardOutput.write("sent SIGHUP to linkhost (pid \(pid)); it logs whether the new config serves, and /healthz shows it under \"reload\"\n")
    }
}
