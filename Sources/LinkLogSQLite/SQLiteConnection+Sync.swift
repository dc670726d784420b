internal import CSQLite

extension SQLiteConnection {
    /// Syncs the WAL and the database file through the files SQLite itself holds open (its VFS's
    /// `xSync`, https://sqlite.org/c3ref/io_methods.html), never a descriptor of our own: closing
    /// any other descriptor of the database would drop every POSIX lock this process holds on it,
    /// and another process's connection closing would then take the database for unused and delete
    /// the live WAL under the writer (https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
    func syncFiles() throws {
        for operation in [SQLITE_FCNTL_JOURNAL_POINTER, SQLITE_FCNTL_FILE_POINTER] {
            var file: UnsafeMutablePointer<sqlite3_file>?
            let found = withUnsafeMutablePointer(to: &file) { sqlite3_file_control(handle, "main", operation, $0) }
            // No WAL open (nothing committed since the connection opened): nothing to sync there.
            guard found == SQLITE_OK, let file, let sync = file.pointee.pMethods?.pointee.xSync else { continue }
            let synced = sync(file, SQLITE_SYNC_NORMAL)
            guard synced == SQLITE_OK else { throw SQLiteError(code: synced, connection: handle, context: "syncing \(path)") }
        }
    }
}
