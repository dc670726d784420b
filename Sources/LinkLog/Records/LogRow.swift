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

    /// Reads a result row of `HitTable.selectColumns`.
    init(_ row: [SQLValue]) {
        func text(_ index: Int) -> String? { row[index].text }
        func integer(_ index: Int) -> Int64 { row[index].integer ?? 0 }
        id = integer(0)
        timestampMilliseconds = integer(1)
        siteID = text(2)
        host = text(3) ?? ""
        method = text(4) ?? ""
        path = text(5) ?? ""
        kind = text(6) ?? ""
        rule = text(7)
        status = Int(integer(8))
        durationMicroseconds = integer(9)
        utmSource = text(10)
        utmMedium = text(11)
        utmCampaign = text(12)
        utmTerm = text(13)
        utmContent = text(14)
        parametersJSON = text(15)
        referrer = text(16)
        userAgent = text(17)
        clientClass = text(18)
        clientAddress = text(19)
        event = text(20)
        secret = text(21)
    }
}
