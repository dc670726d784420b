import LinkLog

/// A hit log in a PostgreSQL database, which several linkhost instances can write into at once.
public struct PostgreSQLLogDatabase: LogDatabase {
    /// The URL and how to show it without its password.
    public let settings: PostgreSQLConnectionSettings
    public let secretKeyFilePath: String
    /// In the folder of the hash key (the configuration's data folder): `linkhost-postgresql.hits-journal`.
    public var defaultJournalPath: String {
        let folder = secretKeyFilePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/linkhost-postgresql.hits-journal"
    }

    /// The log at `settings`, hashing secrets with the key in `secretKeyFilePath` (instances writing
    /// into one database must share that key, or a view and an open of the same code would not pair).
    public init(settings: PostgreSQLConnectionSettings, secretKeyFilePath: String) {
        self.settings = settings
        self.secretKeyFilePath = secretKeyFilePath
    }

    public var displayName: String { settings.displayName }

    public func openStore(_ options: LogStoreOptions) throws -> any LogStore {
        try PostgreSQLLogStore(settings: settings, displayName: displayName)
    }

    /// Connects and brings the schema up to date. A database without the log's tables counts as
    /// missing for reading (`LogError.databaseMissing`): a query never creates them. A reader of a
    /// current schema skips the migration's transaction (its advisory lock and `CREATE … IF NOT
    /// EXISTS`): every `stats` and every dashboard request opens a connection, and reading the
    /// version is one query where the migration is five round trips.
    public func openConnection(readOnly: Bool) throws -> any LogSQLConnection {
        let connection = try PostgreSQLConnection(settings: settings)
        if readOnly {
            var present = (hits: false, meta: false)
            try connection.query(
                "SELECT to_regclass(quote_ident(current_schema()) || '.hits') IS NOT NULL, to_regclass(quote_ident(current_schema()) || '.meta') IS NOT NULL",
                []
            ) { row in present = (row[0] == .text("t"), row[1] == .text("t")) }
            guard present.hits else { throw LogError.databaseMissing(path: displayName) }
            let version = present.meta ? try connection.queryInteger("SELECT value FROM meta WHERE key = $1", [.text(PostgreSQLLogSchema.versionKey)]) : nil
            if version != Int64(PostgreSQLLogSchema.currentVersion) { try PostgreSQLLogSchema.migrate(connection, displayName: displayName) }
            try connection.execute("SET default_transaction_read_only = on")
        } else {
            try PostgreSQLLogSchema.migrate(connection, displayName: displayName)
        }
        return connection
    }
}
