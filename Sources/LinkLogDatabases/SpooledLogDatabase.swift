import Foundation
import LinkLog
import LinkLogSQLite

/// A PostgreSQL log that an earlier linkhost kept a local SQLite spool for (`log.spoolFile`, before
/// the journal replaced it): the writer's first open writes what the spool still holds, oldest batch
/// first and each exactly once (the spool's batch marks), then deletes the spool. One mechanism,
/// the journal, from then on.
public struct SpooledLogDatabase: LogDatabase {
    /// Where the rows belong.
    public let primary: any LogDatabase
    /// The old spool file.
    public let spoolPath: String

    public init(primary: any LogDatabase, spoolPath: String) {
        self.primary = primary
        self.spoolPath = spoolPath
    }

    public var displayName: String { primary.displayName }
    public var secretKeyFilePath: String { primary.secretKeyFilePath }
    public var defaultJournalPath: String { primary.defaultJournalPath }

    /// The database's store, once the old spool (if any is left) is in it.
    public func openStore(_ options: LogStoreOptions) throws -> any LogStore {
        let store = try primary.openStore(options)
        guard FileManager.default.fileExists(atPath: spoolPath) else { return store }
        let spool = try SQLiteSpool(path: spoolPath)
        let key = "spool:" + spool.identifier
        let done = try store.markedSequence(key) ?? 0
        while let batch = try spool.oldestBatch() {
            if batch.sequence > done {
                try store.insert(batch.records, droppedRecords: batch.droppedRecords, marker: LogBatchMarker(key: key, sequence: batch.sequence))
            }
            try spool.remove(batch.sequence)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: spoolPath + suffix) }
        return store
    }

    public func openConnection(readOnly: Bool) throws -> any LogSQLConnection {
        try primary.openConnection(readOnly: readOnly)
    }
}
