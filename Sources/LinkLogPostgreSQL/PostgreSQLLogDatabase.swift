import LinkLog

/// A hit log in a PostgreSQL database, which several linkhost instances can write into at once.
public struct PostgreSQLLogDatabase: LogDatabase {
    /// The URL and how to show it without its password.
    public let settings: PostgreSQLConnectionSettings
    public let secretKeyFilePath: String

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
    /// missing for reading (`LogError.databaseMissing`): a query never creates them.
    public func openConnection(readOnly: Bool) throws -> any LogSQLConnection {
        let connection = try PostgreSQLConnection(settings: settings)
        if readOnly {
            let exists = try connection.queryInteger(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'hits'")
            guard exists == 1 else { throw LogError.databaseMissing(path: displayName) }
        }
        try PostgreSQLLogSchema.migrate(connection, displayName: displayName)
        if readOnly { try connection.execute("SET default_transaction_read_only = on") }
        return connection
    }
}
