/// A column a listing of hits can show. Raw values are the database's column names (plus `time`,
/// the timestamp as readable UTC text), and the names the CLI accepts (`linkhost log --columns`).
/// The columns and how they look are those `HitTable` declares.
public struct HitColumn: RawRepresentable, Hashable, Sendable, CaseIterable {
    public let rawValue: String
    /// The stored column shown.
    private let column: HitTable.Column
    /// Whether this is the stored timestamp as readable text rather than as its number.
    private let isReadableTime: Bool

    private init(_ column: HitTable.Column, name: String? = nil) {
        rawValue = name ?? column.name
        self.column = column
        isReadableTime = name != nil
    }

    /// The column named `rawValue`, if a listing offers one.
    public init?(rawValue: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    /// Every column a listing offers, in `HitTable` order.
    public static let allCases: [HitColumn] = HitTable.columns.flatMap { column -> [HitColumn] in
        switch column.listing {
        case .shown, .onRequest: [HitColumn(column)]
        case .timestamp(let readableName): [HitColumn(column, name: readableName), HitColumn(column)]
        case .hidden: []
        }
    }

    /// A selection that reads well in a 120-column terminal: the site rather than the host and the
    /// client class rather than the user agent (both long), which JSON and CSV output carry in full.
    public static let tableDefault: [HitColumn] = ["time", "site", "kind", "rule", "status", "path", "utm_source", "utm_campaign", "client_class"]
        .map { name in
            guard let column = HitColumn(rawValue: name) else { preconditionFailure("the table's default names \(name), which HitTable lacks") }
            return column
        }

    /// What a listing shows when no columns are chosen and width is no concern (JSON, CSV): every
    /// column but those offered only on request (`secret`).
    public static let fullDefault: [HitColumn] = allCases.filter { column in
        if case .onRequest = column.column.listing { false } else { true }
    }

    /// How early a table narrows this column: free text first, then the path and campaign fields,
    /// then rules and hosts, then the short fixed vocabularies (site, kind, client class); numbers and
    /// times last.
    public var giveWay: ResultTable.GiveWay {
        switch column.listing {
        case .shown(let giveWay), .onRequest(let giveWay): giveWay
        case .timestamp, .hidden: .never
        }
    }

    /// Whether the column holds integers (right-aligned in tables, bare numbers in JSON).
    public var isNumeric: Bool {
        !isReadableTime && column.type != .text
    }

    /// This column's value in `row`.
    public func value(in row: LogRow) -> String? {
        if isReadableTime { return row.timeText }
        switch column.field {
        case .rowID: return String(row.id)
        case .parameters: return row.parametersJSON
        default: return withUnsafePointer(to: row.record) { column.field.value(in: $0).text }
        }
    }

    public static func == (left: HitColumn, right: HitColumn) -> Bool {
        left.rawValue == right.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
