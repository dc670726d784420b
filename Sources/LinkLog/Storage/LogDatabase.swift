/// A database the hit log can live in, as the rest of the log sees it: something the writer opens a
/// `LogStore` on and the reader opens a `LogSQLConnection` on. One implementation per database
/// engine sits in its own module over its C library (`LinkLogSQLite`, `LinkLogPostgreSQL`); nothing
/// in this module, nor anything above the log, knows which one it has.
public protocol LogDatabase: Sendable {
    /// Where the log is, fit to show in a status page or a message: a file path, or a URL without
    /// its password.
    var displayName: String { get }

    /// Where the key that hashes secret parameters lives (`SecretHasher`), beside the database.
    var secretKeyFilePath: String { get }

    /// Where the writer's journal goes unless configured otherwise: on local disk, one per instance.
    var defaultJournalPath: String { get }

    /// Opens the writer's side: creates the database when missing, brings its schema up to date and
    /// prepares what a batch needs. Called on the writer thread, and again after any failure.
    func openStore(_ options: LogStoreOptions) throws -> any LogStore

    /// Opens a connection for queries, or for maintenance (`RollupBuilder`) when `readOnly` is
    /// false. Never creates a database (`LogError.databaseMissing`); brings an older schema up to
    /// date first, as that is the only way to read it.
    func openConnection(readOnly: Bool) throws -> any LogSQLConnection
}
