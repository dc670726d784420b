/// The hits table's columns, as every backend names them: the order the writer inserts them in and
/// the order the reader selects them in (`LogRow`). The tables themselves are made by each backend's
/// migrations, in its own types.
package enum HitTable {
    /// The columns a record fills, in the order of `LogRecord.columnValues`.
    package static let insertColumns = [
        "ts_ms", "site", "host", "method", "path", "kind", "rule", "status", "duration_us",
        "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "params",
        "referrer", "user_agent", "client_class", "client_addr", "event", "secret",
    ]

    /// The columns the reader selects, in `LogRow` order: the id, then the inserted ones.
    package static let selectColumns = (["id"] + insertColumns).joined(separator: ", ")

    /// The `meta` key counting records the writer refused because its queue was full.
    package static let droppedRecordsKey = "dropped_records"
}
