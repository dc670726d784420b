/// One answered request, as the server hands it to the log writer. Every field is stored as given:
/// secrets must already be hashed (`SecretHasher`) and the client address already cut down
/// (`ClientAddressPolicy`) by the time a record is built.
public struct LogRecord: Sendable {
    /// When the request arrived (its head was read): UTC milliseconds since 1970; for an app open
    /// that said when it happened, that time.
    public var timestampMilliseconds: Int64
    /// The configured site that answered; `nil` for hosts no site serves.
    public var siteID: String?
    /// The Host the client asked for.
    public var host: String
    /// The HTTP method.
    public var method: String
    /// The request path without its query.
    public var path: String
    /// What the response was (`aasa`, `fallback`, `bad_link`, `not_found`, `static`, `health`, ...).
    public var kind: String
    /// The link rule that matched, if any.
    public var rule: String?
    /// The HTTP status sent.
    public var status: Int
    /// How long the server took to answer, in microseconds.
    public var durationMicroseconds: Int64
    /// `utm_source` from the query, each UTM parameter in its own column so campaigns can be counted.
    public var utmSource: String?
    /// `utm_medium` from the query.
    public var utmMedium: String?
    /// `utm_campaign` from the query.
    public var utmCampaign: String?
    /// `utm_term` from the query.
    public var utmTerm: String?
    /// `utm_content` from the query.
    public var utmContent: String?
    /// Other tracked query parameters (such as `from=qrcode`), in order; stored as one JSON object in
    /// the `params` column. When a name repeats, the first value is kept.
    public var trackedParameters: [(name: String, value: String)]
    /// The Referer header.
    public var referrer: String?
    /// The User-Agent header.
    public var userAgent: String?
    /// The client class from `ClientClassifier` (`aasa-bot`, `ios`, ...).
    public var clientClass: String?
    /// The client address as it may be stored (already truncated or omitted).
    public var clientAddress: String?
    /// For kind `event`: what the page reported (`open-app`, `store`, `copy`); for kind `app_open`: how
    /// the app was opened (`universal-link`, `custom-scheme`, `pasteboard`) when it said so.
    public var event: String?
    /// The `SecretHasher` token of the matched rule's first secret parameter value, for fallback views,
    /// bad links and app opens; `nil` otherwise. It pairs a view with a later app open of the same
    /// invite code (`LogReader.funnel`) without the code itself being stored.
    public var secretToken: String?
    /// The link's query as sent (without the `?`), each value of a secret parameter replaced by its
    /// `SecretHasher` token; `nil` when the link had none. Kept so an AASA change can be checked
    /// against the links people used (`check --against-log`): rules differ by their query items.
    public var query: String?
    /// The view token (`lh_view`): for a fallback view, the token its page handed to the app;
    /// for an app open, the token the app reported. An open is paired with the view of its token.
    public var viewToken: String?
    /// For requests from a browser inside another app, which app (`instagram`, `facebook`, …, from
    /// the User-Agent); `nil` otherwise.
    public var inApp: String?
    /// The host of the Referer (lower case, without port), the dimension the funnel groups by.
    public var referrerHost: String?

    /// Makes a record; only the facts every response has are required.
    public init(
        timestampMilliseconds: Int64,
        siteID: String?,
        host: String,
        method: String,
        path: String,
        kind: String,
        rule: String? = nil,
        status: Int,
        durationMicroseconds: Int64,
        utmSource: String? = nil,
        utmMedium: String? = nil,
        utmCampaign: String? = nil,
        utmTerm: String? = nil,
        utmContent: String? = nil,
        trackedParameters: [(name: String, value: String)] = [],
        referrer: String? = nil,
        userAgent: String? = nil,
        clientClass: String? = nil,
        clientAddress: String? = nil,
        event: String? = nil,
        secretToken: String? = nil,
        query: String? = nil,
        viewToken: String? = nil,
        inApp: String? = nil,
        referrerHost: String? = nil
    ) {
        self.timestampMilliseconds = timestampMilliseconds
        self.siteID = siteID
        self.host = host
        self.method = method
        self.path = path
        self.kind = kind
        self.rule = rule
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.utmSource = utmSource
        self.utmMedium = utmMedium
        self.utmCampaign = utmCampaign
        self.utmTerm = utmTerm
        self.utmContent = utmContent
        self.trackedParameters = trackedParameters
        self.referrer = referrer
        self.userAgent = userAgent
        self.clientClass = clientClass
        self.clientAddress = clientAddress
        self.event = event
        self.secretToken = secretToken
        self.query = query
        self.viewToken = viewToken
        self.inApp = inApp
        self.referrerHost = referrerHost
    }

    /// The wall-clock time now in UTC milliseconds since 1970, for `timestampMilliseconds`.
    public static func currentTimeMilliseconds() -> Int64 {
        WallClock.nowMilliseconds()
    }
}
