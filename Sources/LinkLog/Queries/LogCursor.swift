/// A place in the log's newest-first order: the time and id of the last hit a page showed. The next
/// page asks for the hits after it (`LogFilter.before`). Its text form, `<ms>.<id>`, goes in URLs.
public struct LogCursor: Sendable, Equatable {
    public var timestampMilliseconds: Int64
    public var id: Int64

    public init(timestampMilliseconds: Int64, id: Int64) {
        self.timestampMilliseconds = timestampMilliseconds
        self.id = id
    }

    /// The cursor just past `row`.
    public init(after row: LogRow) {
        self.init(timestampMilliseconds: row.timestampMilliseconds, id: row.id)
    }

    /// Reads the text form; `nil` for anything else.
    public init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let time = Int64(parts[0]), let id = Int64(parts[1])
        else { return nil }
        self.init(timestampMilliseconds: time, id: id)
    }

    /// `<ms>.<id>`.
    public var text: String { "\(timestampMilliseconds).\(id)" }
}
