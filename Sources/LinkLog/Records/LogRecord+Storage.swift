import OrderedJSON

extension LogRecord {
    /// Cuts every text to `maximumBytes` of UTF-8 at a character boundary: request fields are
    /// client-controlled, and one client should not be able to bloat the log with huge values. The
    /// record is capped once, on the request path before it goes into the journal, so its row and
    /// its rollup counts always hold the same values. In place, writing only a text that is too
    /// long: nearly every record is within bounds, and copying each one cost the writer a tenth of
    /// its time under load. Capping twice changes nothing. The texts are those of `HitTable`'s
    /// columns, and the tracked parameters' names and values. Returns the bytes of the capped
    /// record's journal form (`journalSize`), counted in the same walk over its texts: both run on
    /// every logged request.
    @discardableResult
    package mutating func capText(to maximumBytes: Int) -> Int {
        var size = HitTable.journalIntegerBytes
        withUnsafeMutablePointer(to: &self) { record in
            for offset in HitTable.cappedTextOffsets {
                let text = record.field(at: offset, as: String.self)
                var count = text.pointee.utf8.count
                if count > maximumBytes {
                    text.pointee = Self.capped(text.pointee, to: maximumBytes)
                    count = text.pointee.utf8.count
                }
                size += 2 + count
            }
            for offset in HitTable.cappedOptionalTextOffsets {
                let text = record.field(at: offset, as: String?.self)
                guard let value = text.pointee else {
                    size += 2
                    continue
                }
                var count = value.utf8.count
                if count > maximumBytes {
                    text.pointee = Self.capped(value, to: maximumBytes)
                    count = text.pointee?.utf8.count ?? 0
                }
                size += 2 + count
            }
        }
        // Checked first: writing through the array would copy its storage, which the request's
        // record still shares, even when nothing changes.
        if trackedParameters.contains(where: { $0.name.utf8.count > maximumBytes || $0.value.utf8.count > maximumBytes }) {
            trackedParameters = trackedParameters.map { (Self.capped($0.name, to: maximumBytes), Self.capped($0.value, to: maximumBytes)) }
        }
        size += 2
        for parameter in trackedParameters { size += 4 + parameter.name.utf8.count + parameter.value.utf8.count }
        return size
    }

    /// The `params` column: one JSON object of the names and values in order, the first of each
    /// repeated name kept as `trackedParameters` promises; `nil` for no parameters, so the column
    /// stays NULL rather than holding `{}`. Built by the writer, to keep JSON work off the request path.
    package var parametersJSON: String? {
        Self.parametersJSON(trackedParameters)
    }

    /// `parameters` as the `params` column holds them (see `parametersJSON`).
    static func parametersJSON(_ parameters: [(name: String, value: String)]) -> String? {
        guard !parameters.isEmpty else { return nil }
        var members: [JSONMember] = []
        for parameter in parameters where !members.contains(where: { $0.key == parameter.name }) {
            members.append(JSONMember(parameter.name, .string(parameter.value)))
        }
        return JSONValue.object(members).jsonText(.compact)
    }

    /// The values of `HitTable.recordColumns`, in that order: what PostgreSQL's insert and the
    /// spool write.
    package var columnValues: [SQLValue] {
        withUnsafePointer(to: self) { record in HitTable.recordFields.map { $0.value(in: record) } }
    }

    /// The record whose `columnValues` these are (a spooled row read back); missing values read as
    /// NULL. The `params` JSON is read back into `trackedParameters`; anything unreadable there is
    /// left out.
    package init(columnValues values: [SQLValue]) {
        self = .empty
        let fields = HitTable.recordFields
        for index in 0..<min(fields.count, values.count) { fields[index].set(values[index], in: &self) }
    }

    /// A record with every field empty, zero or `nil`: what reading a stored row starts from.
    static let empty = LogRecord(
        timestampMilliseconds: 0, siteID: nil, host: "", method: "", path: "", kind: "", status: 0, durationMicroseconds: 0)

    /// The parameters a `params` JSON object holds: its members with text values, in order.
    static func parameters(fromJSON json: String) -> [(name: String, value: String)] {
        guard case .object(let members)? = try? JSONParser().parse(json) else { return [] }
        return members.compactMap { member in member.value.stringValue.map { (member.key, $0) } }
    }

    private static func capped(_ text: String, to maximumBytes: Int) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumBytes)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text[..<end])
    }
}

extension HitTable.Field {
    /// This field's value in the record at `record`; NULL for a field no record holds.
    package func value(in record: UnsafePointer<LogRecord>) -> SQLValue {
        switch self {
        case .integer(let offset): .integer(record.field(at: offset, as: Int64.self).pointee)
        case .int(let offset): .integer(Int64(record.field(at: offset, as: Int.self).pointee))
        case .text(let offset): .text(record.field(at: offset, as: String.self).pointee)
        case .optionalText(let offset): SQLValue(record.field(at: offset, as: String?.self).pointee)
        case .parameters(let offset): SQLValue(LogRecord.parametersJSON(record.field(at: offset, as: [(name: String, value: String)].self).pointee))
        case .rowID, .keptByWriter: .null
        }
    }

    /// Sets this field of the record at `record` from a stored value: NULL (or text that is no
    /// number, for an integer) reads as 0 or "" where the field cannot be `nil`.
    package func set(_ value: SQLValue, in record: UnsafeMutablePointer<LogRecord>) {
        switch self {
        case .integer(let offset): record.field(at: offset, as: Int64.self).pointee = value.integer ?? 0
        case .int(let offset): record.field(at: offset, as: Int.self).pointee = Int(value.integer ?? 0)
        case .text(let offset): record.field(at: offset, as: String.self).pointee = value.text ?? ""
        case .optionalText(let offset): record.field(at: offset, as: String?.self).pointee = value.text
        case .parameters(let offset):
            record.field(at: offset, as: [(name: String, value: String)].self).pointee = value.text.map(LogRecord.parameters(fromJSON:)) ?? []
        case .rowID, .keptByWriter: break
        }
    }
}

extension UnsafePointer<LogRecord> {
    /// The stored property at `offset` (a `HitTable.Field`'s), read in place. Inlinable, so that the
    /// writer's binding reads a field with a load rather than a generic call.
    @inlinable
    package func field<Value>(at offset: Int, as type: Value.Type) -> UnsafePointer<Value> {
        UnsafeRawPointer(self).advanced(by: offset).assumingMemoryBound(to: type)
    }
}

extension UnsafeMutablePointer<LogRecord> {
    /// The stored property at `offset` (a `HitTable.Field`'s), to read or write in place.
    @inlinable
    package func field<Value>(at offset: Int, as type: Value.Type) -> UnsafeMutablePointer<Value> {
        UnsafeMutableRawPointer(self).advanced(by: offset).assumingMemoryBound(to: type)
    }
}
