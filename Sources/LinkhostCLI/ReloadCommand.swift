import ArgumentParser
import Foundation
import Glibc
import LinkhostKit

/// `linkhost reload`: tell a running `linkhost serve` to read its configuration again (SIGHUP to
/// the process in its pid file, or to the one serving the config), as `nginx -s reload` does.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make a running linkhost serve read its config again (SIGHUP).",
        discussion: """
            The server is the one in --pid-file, else in server.pidFile of --config, else the one \
            linkhost serve process on this machine whose config is that file (found in /proc). The \
            server checks the new config as at start; if any check fails it keeps serving the old one. Either way it logs the outcome, \
            and linkhost probe --details (the admin listener's /healthz) shows it under "reload". Exit status: 0 signal sent, 1 no running linkhost to \
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
            let configured: String?
            do {
                configured = try ConfigurationLoader.pidFile(inConfigAt: configOptions.config)
            } catch {
                throw CLIFailure.unusableInput("cannot find the pid file in the config; give it with --pid-file.\n\(error)")
            }
            guard let configured else {
                try signal(try ServeProcesses.one(servingConfigAt: configOptions.config))
                return
            }
            path = configured
        }
        let file = PIDFile(path: path)
        let pid: pid_t
        do {
            pid = try file.runningServer()
        } catch {
            throw error.isUnusableInput ? CLIFailure.unusableInput(error.description) : CLIFailure.runtime(error.description)
        }
        try signal(pid)
    }

    private func signal(_ pid: pid_t) throws {
        guard kill(pid, SIGHUP) == 0 else {
            throw CLIFailure.runtime("cannot signal process \(pid): \(String(cString: strerror(errno)))")
        }
        StandardOutput.write(
            "sent SIGHUP to linkhost (pid \(pid)); it logs whether the new config serves, and linkhost probe --details shows it under \"reload\"\n")
    }
}

/// The running `linkhost serve` processes of this machine, found by their command lines in `/proc`:
/// how `reload` finds the server when no pid file is configured (a fresh clone's config sets none,
/// and a pid file in a shared place would make two test servers fight over it).
enum ServeProcesses {
    /// The one `serve` process whose config file is the file at `path`; an error that says what was
    /// found otherwise (none, or several).
    static func one(servingConfigAt path: String) throws -> pid_t {
        let wanted = canonical(path, relativeTo: FileManager.default.currentDirectoryPath)
        let found = serving(configAt: wanted)
        switch found.count {
        case 1: return found[0]
        case 0:
            throw CLIFailure.runtime(
                "no running linkhost serve uses the config \(wanted); start it (bash scripts/serve), or give --pid-file (or server.pidFile) for one that runs elsewhere"
            )
        default:
            throw CLIFailure.runtime(
                "\(found.count) linkhost serve processes use the config \(wanted) (pids \(found.map(String.init).joined(separator: ", "))); give --pid-file, or set server.pidFile"
            )
        }
    }

    /// The `serve` processes (of the same program as this one) whose `--config`, read from their
    /// own working folder, is the file `config` (canonical).
    static func serving(configAt config: String) -> [pid_t] {
        let own = ProcessName.of(getpid())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid(), own == nil || ProcessName.of(pid) == own,
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                let folder = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
            else { return false }
            let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.count >= 2, arguments[1] == "serve" else { return false }
            return canonical(configArgument(arguments) ?? "config.json", relativeTo: folder) == config
        }.sorted()
    }

    /// The value of `--config PATH` or `--config=PATH` in a command line.
    private static func configArgument(_ arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        return nil
    }

    /// `path` made absolute against `folder`, with `.`, `..` and symbolic links resolved.
    private static func canonical(_ path: String, relativeTo folder: String) -> String {
        let absolute = path.hasPrefix("/") ? path : folder + "/" + path
        return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().standardizedFileURL.path
    }
}
