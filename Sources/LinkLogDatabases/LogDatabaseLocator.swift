import LinkLog
import LinkLogSQLite

/// Picks the backend for a log location, so the server and the CLI never name one: the one place
/// that knows every `LogDatabase` there is.
public enum LogDatabaseLocator {
    /// The database at `location`: today always a SQLite file path.
    public static func database(at location: String) -> any LogDatabase {
        SQLiteLogDatabase(path: location)
    }
}
