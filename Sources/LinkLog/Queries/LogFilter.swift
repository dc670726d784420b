/// Which rows a query looks at. Every field left `nil` matches everything; text fields match exactly.
public struct LogFilter: Sendable, Equatable {
    /// Rows at or after this time (UTC milliseconds; see `TimeBound.parse`).
    public var since: Int64?
    /// Rows before this time (UTC milliseconds), so `since`/`until` ranges can abut without overlap.
    public var until: Int64?
    /// Only this Host.
    public var host: String?
    /// Only this link rule.
    public var rule: String?
    /// Only this kind of response (`fallback`, `aasa`, …).
    public var kind: String?
    /// Only this site id.
    public var site: String?
    /// Only this `utm_source`.
    public var utmSource: String?
    /// Only this `utm_medium`.
    public var utmMedium: String?
    /// Only this `utm_campaign`.
    public var utmCampaign: String?
    /// Only this client class (`ios`, `aasa-bot`, …).
    public var clientClass: String?
    /// At most this many rows (or, for statistics, groups).
    public var limit: Int?
    /// Only hits older than this one in the log's order (newest first): where the previous page ended.
    /// Hits only; statistics ignore it.
    public var before: LogCursor?

    /// A filter; with no arguments, everything.
    public init(
        since: Int64? = nil,
        until: Int64? = nil,
        host: String? = nil,
        rule: String? = nil,
        kind: String? = nil,
        site: String? = nil,
        utmSource: String? = nil,
        utmMedium: String? = nil,
        utmCampaign: String? = nil,
        clientClass: String? = nil,
        limit: Int? = nil,
        before: LogCursor? = nil
    ) {
        self.since = since
        self.until = until
        self.host = host
        self.rule = rule
        self.kind = kind
        self.site = site
        self.utmSource = utmSource
        self.utmMedium = utmMedium
        self.utmCampaign = utmCampaign
        self.clientClass = clientClass
        self.limit = limit
        self.before = before
    }
}
