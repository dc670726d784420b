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
}
