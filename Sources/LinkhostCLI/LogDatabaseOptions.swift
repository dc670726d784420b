import ArgumentParser
import Foundation
import LinkLog
import LinkLogDatabases

/// Which log database a command reads: `--db`, or the config's `log.database`. Shared by `log`,
/// `stats`, `rollup` and `backup`.
struct LogDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The log database: a SQLite file or a postgresql:// URL (default: log.database of the config).", valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("The config naming the database (default config.json).", valueName: "path"))
    var config: String?

    func validate() throws {
        if db != nil && config != nil { throw ValidationError("give --db PATH or --config PATH, not both") }
    }

    /// The database these options name; it must exist (reading never creates one). From a config,
    /// a PostgreSQL log knows its key file (`log.secretKeyFile`); a SQLite log's is beside it.
    func database() throws -> any LogDatabase {
        let path: String
        var keyFile: String?
        if let db {
            path = db
        } else {
            let log = try CLIConfig.load(config ?? "config.json").log
            path = log.databasePath
            keyFile = log.secretKeyFile
        }
        guard LogDatabaseLocator.isURL(path) || FileManager.default.fileExists(atPath: path) else {
            throw CLIFailure.unusableInput("no log database at \(path) (it is made when the server first answers a request); give --db PATH or --config PATH")
        }
        return keyFile.map { LogDatabaseLocator.database(at: path, secretKeyFile: $0) } ?? LogDatabaseLocator.database(at: path)
    }
}
