import ArgumentParser
import Logging

/// Options every subcommand that reads the config file shares.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path of the config file.", valueName: "path"))
    var config: String = "config.json"
}

/// The log level, as a flag whose bad values are answered with the allowed ones.
enum LogLevelOption: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}
