/// A mark a store records in the same transaction as a batch: "batches of `key` up to `sequence` are
/// in". A writer that cannot tell whether a batch was committed (the connection broke during the
/// commit) asks for the mark before writing it again, so no batch is written twice.
public struct LogBatchMarker: Sendable, Equatable {
    /// Whose batches: one key per spool (`spool:<its identifier>`) and per journal (`journal:<its identifier>`).
    public var key: String
    /// The batch's number; numbers only grow.
    public var sequence: Int64

    public init(key: String, sequence: Int64) {
        self.key = key
        self.sequence = sequence
    }

    /// The `meta` key the mark is kept under.
    package var metaKey: String { "batch:" + key }

    /// The key of the writer's marks of a journal, before the journal's identity
    /// (`HitJournal.identifier`).
    package static let journalKeyPrefix = "journal:"

    /// What every journal mark's `meta` key starts with.
    package static var journalMetaKeyPrefix: String { LogBatchMarker(key: journalKeyPrefix, sequence: 0).metaKey }
}
