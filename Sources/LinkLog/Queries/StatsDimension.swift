/// What `LogReader.stats` groups hits by. Raw values are the names the CLI accepts.
public enum StatsDimension: String, Sendable, CaseIterable {
    case rule
    case kind
    case host
    /// The client class.
    case client
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"
    /// The UTC calendar day, `2026-11-01`.
    case day
    case site
    case status
    /// Which app's in-app browser (`instagram`, `facebook`, …; none for other browsers).
    case inApp = "in_app"
    /// The host of the Referer (`l.instagram.com`, `t.co`, …; none when no Referer was sent).
    case referrerHost = "referrer_host"
    /// Which app or crawler fetched the page when no person did (`whatsapp`, `imessage`,
    /// `googlebot`, …; none for people).
    case previewApp = "preview_app"

    /// The SQL giving each row's group key, on the hits table (time in `ts_ms`) or a rollup table
    /// (time in `bucket_ms`): the same column names on both, so one grouping reads the same on
    /// both. A day is its number since 1970 (floor division, right for times before 1970 too) and
    /// becomes a date in `key(from:)`, so no engine's date functions are involved.
    func keyExpression(timeColumn: String = "ts_ms") -> String {
        switch self {
        case .rule: "rule"
        case .kind: "kind"
        case .host: "host"
        case .client: "client_class"
        case .utmSource: "utm_source"
        case .utmMedium: "utm_medium"
        case .utmCampaign: "utm_campaign"
        case .day: "((\(timeColumn) - ((\(timeColumn) % 86400000) + 86400000) % 86400000) / 86400000)"
        case .site: "site"
        case .status: "status"
        case .inApp: "in_app"
        case .referrerHost: "referrer_host"
        case .previewApp: "preview_app"
        }
    }

    /// Whether the rollup tables keep the column grouped by. The in-app browser's app, the
    /// previewer's app and the referrer's host are not kept there (the referrer's hosts are many, and every rollup row is
    /// paid by the writer): grouping by them counts the hits of the whole range.
    var isRolledUp: Bool {
        column.map(RollupTable.dimensionColumns.contains) ?? true
    }

    /// The column grouped by; `nil` for `day`, which only needs the time.
    var column: String? {
        self == .day ? nil : keyExpression()
    }

    /// The key a group value is shown as: a day number as its date, a status as its number.
    func key(from value: SQLValue) -> String? {
        guard self == .day else { return value.text }
        return value.integer.map { UTCCalendar.dateText(daysSinceEpoch: $0) }
    }

    /// Whether the group values are numbers (days, statuses), compared by size.
    var isNumeric: Bool { self == .day || self == .status }

    /// Whether group `left` comes before group `right` when their counts are equal: no value first,
    /// numbers by size, text by its UTF-8 bytes (as SQLite's BINARY collation orders it). Sorting is
    /// done here, not in SQL, so every engine orders alike.
    func keyPrecedes(_ left: SQLValue, _ right: SQLValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        default:
            if isNumeric, let leftNumber = left.integer, let rightNumber = right.integer { return leftNumber < rightNumber }
            return Array((left.text ?? "").utf8).lexicographicallyPrecedes(Array((right.text ?? "").utf8))
        }
    }
}
