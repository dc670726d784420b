/// One distinct link people used in a time window — a page view or an app open — as the log keeps
/// it (secrets hashed), with how often it was used: what `check --against-log` answers under two AASA
/// files.
public struct LoggedLink: Sendable, Hashable {
    /// The site that answered, when one did.
    public var siteID: String?
    /// The Host asked for.
    public var host: String
    /// The path as logged (secret placeholders replaced by their tokens).
    public var path: String
    /// The query as logged; `nil` for a link without one, and for every row logged before the log
    /// kept queries (`isBeforeQueries`).
    public var query: String?
    /// Whether the row comes from before the log kept queries, so `query` says nothing.
    public var isBeforeQueries: Bool
    /// The link rule that served it then.
    public var rule: String?
    /// How many page views and app opens used it in the window.
    public var hits: Int
    /// How many distinct links this one stands for: 1, or a `LinkForm`'s links (`LinkWindow`).
    public var links = 1
    /// For a form, the first of its links seen, as logged (host, path and query); `nil` for a link.
    public var example: String?

    public init(siteID: String?, host: String, path: String, query: String?, isBeforeQueries: Bool, rule: String?, hits: Int) {
        self.siteID = siteID
        self.host = host
        self.path = path
        self.query = query
        self.isBeforeQueries = isBeforeQueries
        self.rule = rule
        self.hits = hits
    }

    /// The kinds of row that are a link someone used: fallback page views and app opens (bypass
    /// opens through the page's button are app opens too).
    public static let kinds = ["fallback", "app_open"]
}
