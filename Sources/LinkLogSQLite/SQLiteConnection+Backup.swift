internal import CSQLite

extension SQLiteConnection {
    /// Copies this connection's database into `destination`'s, page by page, with SQLite's online
    /// backup (https://sqlite.org/backup.html) in one step of every page. Not a few pages a step: a
    /// backup that steps starts over whenever another connection writes between its steps, so under
    /// the log writer's commits it would never end. Inside a read transaction of this connection
    /// the copy is of that transaction's snapshot (a backup uses the one open on its source).
    func copyPages(into destination: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(code: sqlite3_extended_errcode(destination.handle), connection: destination.handle, context: "starting to copy \(path)")
        }
        let stepped = sqlite3_backup_step(backup, -1)
        // Finishing reports a failure of the step again, and sets the destination's message.
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
            throw SQLiteError(
                code: finished != SQLITE_OK ? finished : stepped, connection: destination.handle, context: "copying \(path) into \(destination.path)")
        }
    }
}
