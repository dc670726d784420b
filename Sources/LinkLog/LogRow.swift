/// One stored hit, as read back by `LogReader`.
public struct LogRow: Sendable, Equatable {
    /// The row's id (increasing in insertion order).
    public var id: Int64
    /// When the request was answered, UTC milliseconds since 1970.
    public var timestampMilliseconds: Int64
    /// The site that answered; `nil` for unknown hosts.
    public var siteID: String?
    /// The Host asked for.
    public var host: String
    /// The HTTP method.
    public var method: String
    /// The path, without query.
    public var path: String
    /// What the response was (`fallback`, `aasa`, …).
    public var kind: String
    /// The link rule that matched, if any.
    public var rule: String?
    /// The HTTP status sent.
    public var status: Int
    /// Time to answer, in microseconds.
    public var durationMicroseconds: Int64
    /// The UTM parameters, each from its own column.
    public var utmSource: String?
    public var utmMedium: String?
    public var utmCampaign: String?
    public var utmTerm: String?
    public var utmContent: String?
    /// The other tracked parameters as stored: a JSON object such as `{"from":"qrcode"}`, or `nil`.
    public var parametersJSON: String?
    /// The Referer header.
    public var referrer: String?
    /// The User-Agent header.
    public var userAgent: String?
    /// The client class (`ios`, `aasa-bot`, …); backfilled for rows older than schema version 2.
    public var clientClass: String?
    /// The client address as stored (truncated, or `nil`).
    public var clientAddress: String?
    /// What a fallback page reported, for kind `event` (`open-app`, `store`, `copy`); else `nil`.
    public var event: String?
    /// The hashed token of the matched rule's secret parameter (views, bad links, app opens); `nil`
    /// for other rows and for rows older than schema version 4.
    public var secret: String?

    /// The timestamp as `2026-11-01T10:00:00.123Z`.
    public var timeText: String {
        UTCCalendar.timestampText(milliseconds: timestampMilliseconds)
    }

    /// Reads the current row of a statement selecting `LogSchema.selectHitColumns`.
    init(_ statement: SQLiteStatement) {
        id = statement.int64(at: 0)
        timestampMilliseconds = statement.int64(at: 1)
        siteID = statement.text(at: 2)
        host = statement.text(at: 3) ?? ""
        method = statement.text(at: 4) ?? ""
        path = statement.text(at: 5) ?? ""
        kind = statement.text(at: 6) ?? ""
        rule = statement.text(at: 7)
        status = Int(statement.int64(at: 8))
        durationMicroseconds = statement.int64(at: 9)
        utmSource = statement.text(at: 10)
        utmMedium = statement.text(at: 11)
        utmCampaign = statement.text(at: 12)
        utmTerm = statement.text(at: 13)
        utmContent = statement.text(at: 14)
        parametersJSON = statement.text(at: 15)
        referrer = statement.text(at: 16)
        userAgent = statement.text(at: 17)
        clientClass = statement.text(at: 18)
        clientAddress = statement.text(at: 19)
        event = statement.text(at: 20)
        secret = statement.text(at: 21)
    }
}
