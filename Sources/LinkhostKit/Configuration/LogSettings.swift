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
    /// Where a PostgreSQL log's writer keeps batches while the server cannot be reached (a SQLite
    /// file, replayed in order once it is back).
    public var spoolFile: String
    /// How client addresses are stored: truncated (IPv4 /24, IPv6 /48) or not at all.
    public var clientAddress: ClientAddressPolicy
    /// Rows older than this many days are deleted; 0 keeps everything.
    public var retentionDays: Int
    /// Query parameters kept (besides `utm_*`, which have columns), e.g. `from` of `from=qrcode`.
    public var trackedParameters: [String]
    /// Records waiting for the writer at most; beyond it they are counted as dropped.
    public var queueCapacity: Int
    /// How long a record waits for room in a full queue while the writer keeps committing, in
    /// milliseconds, before it is dropped; 0 drops at once (`LogWriterConfiguration.fullQueueWait`).
    public var fullQueueWaitMilliseconds: Int

    public static let defaultDatabase = "data/linkhost.sqlite"
    /// The hash key of a PostgreSQL log, unless `secretKeyFile` says otherwise (from the config's folder).
    public static let defaultSecretKeyFile = "data/linkhost.key"
    /// A PostgreSQL log's local spool, unless `spoolFile` says otherwise (from the config's folder).
    public static let defaultSpoolFile = "data/linkhost-spool.sqlite"

    public init(
        enabled: Bool = true, databasePath: String = LogSettings.defaultDatabase, secretKeyFile: String = LogSettings.defaultSecretKeyFile,
        spoolFile: String = LogSettings.defaultSpoolFile, clientAddress: ClientAddressPolicy = .truncated, retentionDays: Int = 90,
        trackedParameters: [String] = ["from"], queueCapacity: Int = 8_192,
        fullQueueWaitMilliseconds: Int = 1000
    ) {
        self.enabled = enabled
        self.databasePath = databasePath
        self.secretKeyFile = secretKeyFile
        self.spoolFile = spoolFile
        self.clientAddress = clientAddress
        self.retentionDays = retentionDays
        self.trackedParameters = trackedParameters
        self.queueCapacity = queueCapacity
        self.fullQueueWaitMilliseconds = fullQueueWaitMilliseconds
    }
}
