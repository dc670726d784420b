import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// The `log` object: where the hit log is and what it keeps.
public struct LogSettings: Sendable, Equatable {
    /// Whether hits are logged at all.
    public var enabled: Bool
    /// The SQLite file (absolute after loading; relative paths are from the config file's folder),
    /// or a `postgresql://` URL.
    public var databasePath: String
    /// Where a PostgreSQL log's key that hashes secret parameters is kept (a SQLite log keeps its
    /// key beside the file, `<file>.key`). Instances writing into one database must share it.
    public var secretKeyFile: String
    /// Where an earlier linkhost kept a PostgreSQL log's batches while the server could not be
    /// reached: what it still holds is written once at start, then it is deleted (the journal has
    /// taken its place).
    public var spoolFile: String
    /// The journal every record goes into before the database: a file on local disk, one per
    /// instance; by default beside the SQLite file (`<file>.hits-journal`) or, for PostgreSQL, in
    /// the data folder (`data/linkhost-postgresql.hits-journal`).
    public var journalPath: String?
    /// The journal's size when it is made (`LogWriterConfiguration.defaultJournalSizeBytes`).
    public var journalSizeBytes: Int
    /// How often the journal is synced to disk: what a power loss may cost at most.
    public var journalSyncIntervalMilliseconds: Int
    /// How client addresses are stored: truncated (IPv4 /24, IPv6 /48) or not at all.
    public var clientAddress: ClientAddressPolicy
    /// Rows older than this many days are deleted; 0 keeps everything.
    public var retentionDays: Int
    /// Query parameters kept (besides `utm_*`, which have columns), e.g. `from` of `from=qrcode`.
    public var trackedParameters: [String]

    public static let defaultDatabase = "data/linkhost.sqlite"
    /// The hash key of a PostgreSQL log, unless `secretKeyFile` says otherwise (from the config's folder).
    public static let defaultSecretKeyFile = "data/linkhost.key"
    /// A PostgreSQL log's local spool, unless `spoolFile` says otherwise (from the config's folder).
    public static let defaultSpoolFile = "data/linkhost-spool.sqlite"

    public init(
        enabled: Bool = true, databasePath: String = LogSettings.defaultDatabase, secretKeyFile: String = LogSettings.defaultSecretKeyFile,
        spoolFile: String = LogSettings.defaultSpoolFile, clientAddress: ClientAddressPolicy = .truncated, retentionDays: Int = 90,
        trackedParameters: [String] = ["from"], journalPath: String? = nil,
        journalSizeBytes: Int = Int(LogWriterConfiguration.defaultJournalSizeBytes), journalSyncIntervalMilliseconds: Int = 1000
    ) {
        self.enabled = enabled
        self.databasePath = databasePath
        self.secretKeyFile = secretKeyFile
        self.spoolFile = spoolFile
        self.clientAddress = clientAddress
        self.retentionDays = retentionDays
        self.trackedParameters = trackedParameters
        self.journalPath = journalPath
        self.journalSizeBytes = journalSizeBytes
        self.journalSyncIntervalMilliseconds = journalSyncIntervalMilliseconds
    }
}
