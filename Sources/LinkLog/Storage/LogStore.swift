/// The writer's side of a log database: used on the writer thread only, dropped and opened again
/// (through `LogDatabase.openStore`) after any failure, which is how a restarted server or a
/// re-created file is picked up.
public protocol LogStore: AnyObject {
    /// Whether this store still writes where readers will look. SQLite keeps writing into a file that
    /// was deleted or replaced, so its store compares the file it opened with the one at its path;
    /// a store whose connection notices such things itself just says `true`.
    var isStillCurrent: Bool { get }

    /// Inserts `records` (already capped, `LogRecord.cappingText`) and adds `droppedRecords` to the
    /// dropped counter, in one transaction: either everything is in the database or nothing is.
    func insert(_ records: [LogRecord], droppedRecords: Int) throws

    /// Deletes hits before `cutoffMilliseconds`, in one transaction; returns how many went.
    func deleteRows(before cutoffMilliseconds: Int64) throws -> Int
}
