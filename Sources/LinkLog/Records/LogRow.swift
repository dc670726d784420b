/// One stored hit, as read back by `LogReader`: the record that was written, with the id the
/// database gave it. The record's fields read as the row's own (`row.path`, `row.clientClass`); a
/// column added by a later schema version reads as `nil` on older rows (apart from `client_class`,
/// which the version 2 migration filled in from the user agent).
@dynamicMemberLookup
public struct LogRow: Sendable, Equatable {
    /// The row's id (increasing in insertion order).
    public var id: Int64
    /// The stored fields, but for the tracked parameters, which stay in `parametersJSON` (the
    /// record's `trackedParameters` is empty): reading them back parses JSON, which would double
    /// the cost of reading a row, and listings and exports show the JSON as stored.
    public var record: LogRecord
    /// The other tracked parameters as stored: a JSON object such as `{"from":"qrcode"}`, or `nil`.
    public var parametersJSON: String?

    /// The tracked parameters `parametersJSON` holds, read back (anything unreadable left out).
    public var trackedParameters: [(name: String, value: String)] {
        parametersJSON.map(LogRecord.parameters(fromJSON:)) ?? []
    }

    /// A field of the record.
    public subscript<Value>(dynamicMember path: WritableKeyPath<LogRecord, Value>) -> Value {
        get { record[keyPath: path] }
        set { record[keyPath: path] = newValue }
    }

    /// The hashed token of the matched rule's secret parameter (`LogRecord.secretToken`).
    public var secret: String? {
        get { record.secretToken }
        set { record.secretToken = newValue }
    }

    /// The timestamp as `2026-11-01T10:00:00.123Z`.
    public var timeText: String {
        UTCCalendar.timestampText(milliseconds: record.timestampMilliseconds)
    }

    /// Reads a result row of `HitTable.rowSelectList`, whose values stand in `HitTable.rowColumns` order.
    init(_ values: [SQLValue]) {
        id = 0
        record = .empty
        let fields = HitTable.rowFields
        for index in 0..<min(fields.count, values.count) {
            switch fields[index] {
            case .rowID: id = values[index].integer ?? 0
            case .parameters: parametersJSON = values[index].text
            default: fields[index].set(values[index], in: &record)
            }
        }
    }

    /// Rows are equal when every column is.
    public static func == (left: LogRow, right: LogRow) -> Bool {
        guard left.id == right.id, left.parametersJSON == right.parametersJSON else { return false }
        return withUnsafePointer(to: left.record) { leftRecord in
            withUnsafePointer(to: right.record) { rightRecord in
                HitTable.recordFields.allSatisfy { $0.value(in: leftRecord) == $0.value(in: rightRecord) }
            }
        }
    }
}
