import LinkLog
import LinkLogPostgreSQL
import LinkLogSQLite

/// Picks the backend for a log location, so the server and the CLI never name one: the one place
/// that knows every `LogDatabase` there is.
public enum LogDatabaseLocator {
    /// Whether `location` is a database URL (`postgresql://…`) rather than a file path, which
    /// configuration must not resolve against a folder.
    public static func isURL(_ location: String) -> Bool {
        PostgreSQLConnectionSettings.isURL(location)
    }

    /// The database at `location`: a PostgreSQL database for a `postgresql://` or `postgres://` URL,
    /// else the SQLite file at that path. `secretKeyFile` is where a PostgreSQL log's hash key is
    /// (a file keeps it beside itself, `<file>.key`); with `spoolFile`, a PostgreSQL log's writer
    /// first writes what an earlier linkhost's spool there still holds (`SpooledLogDatabase`). Only
    /// a writer needs either.
    public static func database(at location: String, secretKeyFile: String = "data/linkhost.key", spoolFile: String? = nil) -> any LogDatabase {
        if let settings = PostgreSQLConnectionSettings(url: location) {
            let database = PostgreSQLLogDatabase(settings: settings, secretKeyFilePath: secretKeyFile)
            return spoolFile.map { SpooledLogDatabase(primary: database, spoolPath: $0) } ?? database
        }
        return SQLiteLogDatabase(path: location)
    }

    /// The `LinkWindow` of the SQLite log at `location`, kept beside it in `<file>.links`; `nil` for a
    /// PostgreSQL log. Decision: the window takes rows in by id, and a fleet's instances draw a
    /// PostgreSQL log's ids from one sequence but commit them out of order, so a row committed late
    /// would be skipped; a reload there answers the window's rows with one query, as `check
    /// --against-log` does. Throws `LogError.databaseMissing` until the log exists.
    public static func linkWindow(forLogAt location: String) throws -> LinkWindow? {
        guard PostgreSQLConnectionSettings(url: location) == nil else { return nil }
        let log = try SQLiteLogDatabase(path: location).openConnection(readOnly: true)
        let store = try SQLiteConnection(path: linkWindowPath(forLogAt: location))
        try store.setBusyTimeout(.seconds(5))
        // Derived data, filled again from the log if lost: WAL with NORMAL syncs only at checkpoints.
        try store.execute("PRAGMA journal_mode = WAL")
        try store.execute("PRAGMA synchronous = NORMAL")
        return try LinkWindow(store: store, log: log)
    }

    /// Where the SQLite log at `location` keeps its `LinkWindow`.
    public static func linkWindowPath(forLogAt location: String) -> String {
        location + ".links"
    }
}
