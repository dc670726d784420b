/// A buffer the log writer copies a row's texts into before binding them, so that SQLite need not
/// copy each one into memory of its own: one copy into reused memory instead of an allocation, a
/// copy and a free per value (a tenth of the writer's time under load). Values that no longer fit
/// are bound the ordinary, copying way, so a row is never refused for its size.
///
/// The texts bound through it stay valid until `startRow()`: call that only after the previous
/// row's statement has been stepped and reset.
final class SQLiteTextArena {
    private let storage: UnsafeMutablePointer<CChar>
    private let capacity: Int
    private var used = 0

    /// An arena of `capacity` bytes: enough for a row whose texts are each capped by the writer.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Makes the whole buffer available for the next row.
    func startRow() {
        used = 0
    }

    /// Binds `text` (NULL for `nil`) to `statement` at `index`.
    func bind(_ text: String?, to statement: SQLiteStatement, at index: Int) throws {
        guard let text else { return try statement.bindNull(at: index) }
        try bind(text.utf8, to: statement, at: index)
    }

    /// Binds the text at `text` (NULL for `nil`), read where it lies: a field of a record that the
    /// writer binds in place (`SQLiteLogStore`), which reading out would copy.
    func bind(_ text: UnsafePointer<String?>, to statement: SQLiteStatement, at index: Int) throws {
        guard let utf8 = text.pointee?.utf8 else { return try statement.bindNull(at: index) }
        try bind(utf8, to: statement, at: index)
    }

    /// Binds the text at `text`, read where it lies.
    func bind(_ text: UnsafePointer<String>, to statement: SQLiteStatement, at index: Int) throws {
        try bind(text.pointee.utf8, to: statement, at: index)
    }

    private func bind(_ utf8: String.UTF8View, to statement: SQLiteStatement, at index: Int) throws {
        let count = utf8.count
        let start = storage + used
        let copied =
            count <= capacity - used
            && utf8.withContiguousStorageIfAvailable { bytes in
                if let base = bytes.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: bytes.count) }
                return true
            } == true
        // Too long for what is left, or not stored as UTF-8 (a bridged string): SQLite copies it.
        guard copied else { return try statement.bind(text: String(utf8), at: index) }
        used += count
        try statement.bind(unownedText: start, count: count, at: index)
    }
}
