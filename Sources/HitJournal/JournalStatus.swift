/// A journal's counters and fill, for the writer's status (the health report, the metrics, the stop line).
public struct JournalStatus: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Bytes of records it holds at most.
    public var ringSize: UInt64
    /// Bytes of records not reclaimed yet (not yet durably in the database).
    public var usedBytes: UInt64
    /// Records appended by this process.
    public var appended: Int
    /// Records dropped because the ring was full (or a record was larger than a quarter of it).
    public var droppedFull: Int
    /// Writes into the file that failed (the record is then lost, and counted here).
    public var failedWrites: Int
    /// Records whose write failed, still in the ring (stepped over by the reader).
    public var holes: Int
    /// The last sequence number handed out.
    public var lastSequence: UInt64
    /// Why the last `fdatasync` failed, while it does.
    public var syncFailure: String?
    /// Why the file is no longer the journal at its path (deleted, truncated or replaced while in
    /// use, or a new one could not be made), `nil` while it is: records still go into the open
    /// file, but a crash would lose them.
    public var fileProblem: String?
    /// Lost files made anew while serving.
    public var replacements: Int
    /// What happened at the last one.
    public var lastReplacement: String?
    /// What opening found.
    public var recovery: JournalRecovery
}
