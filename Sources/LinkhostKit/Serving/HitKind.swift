/// What kind of request a response answered; logged with every hit and used in statistics.
public enum HitKind: String, Sendable, CaseIterable {
    /// The apple-app-site-association file (200 or 304).
    case aasa
    /// Android's `/.well-known/assetlinks.json` (200, 304, or 404 for a site without an Android app).
    case assetLinks = "assetlinks"
    /// A fallback page for a link rule.
    case fallback
    /// A link whose parameters are missing or malformed (400).
    case badLink = "bad_link"
    /// A path no rule serves (404).
    case notFound = "not_found"
    /// A file under Public/static.
    case staticFile = "static"
    /// The health endpoint.
    case health
    /// A method other than GET and HEAD (405).
    case methodNotAllowed = "method_not_allowed"
    /// A Host no site lists, with no default site (404).
    case unknownHost = "unknown_host"
    /// A page asked for over plain HTTP, sent to HTTPS (308).
    case redirect
    /// A request refused before any site saw it (a malformed or oversized request: 400, 413, 414, 431).
    case rejected
    /// The app reported that a link opened it (`POST /v1/opens`).
    case appOpen = "app_open"
    /// A fallback page reported a button click (`POST /v1/events`); the event name is logged with it.
    case event
}

/// The facts about a response that the request log needs: the responders' `HTTPResponder.Annotation`,
/// handed back to the hit logger, typed, when the exchange completes.
public struct HitAnnotation: Sendable, Equatable {
    public var kind: HitKind
    /// The id of the site that answered, `nil` for unknown hosts.
    public var siteID: String?
    /// The link rule that matched, for fallback pages and bad links.
    public var rule: String?
    /// That rule's path placeholders as the request sent them, passed along from routing so the log
    /// can replace secret ones without matching the path a second time.
    public var pathCaptures: [String: String]
    /// For app opens and page events: the link that was reported, logged instead of the API path.
    public var reported: ReportedTarget?
    /// The page event's name, or how the app was opened (`universal-link`, …) for app opens.
    public var event: String?
    /// False for answers that must leave no row (refused reports).
    public var logged: Bool
    /// Why a report was refused (`unauthorized`, `rate_limited`, …), for the metrics; `nil` otherwise.
    public var rejection: String?

    public init(
        kind: HitKind, siteID: String? = nil, rule: String? = nil, pathCaptures: [String: String] = [:], reported: ReportedTarget? = nil,
        event: String? = nil, logged: Bool = true, rejection: String? = nil
    ) {
        self.kind = kind
        self.siteID = siteID
        self.rule = rule
        self.pathCaptures = pathCaptures
        self.reported = reported
        self.event = event
        self.logged = logged
        self.rejection = rejection
    }
}

/// A link reported to the ingest endpoints, as it is logged: the web link's host, path and query.
public struct ReportedTarget: Sendable, Equatable {
    public var host: String
    public var rawPath: String
    public var rawQuery: String?
    /// When it happened by the reporter's clock (UTC milliseconds), when it said so.
    public var occurredAt: Int64?

    public init(host: String, rawPath: String, rawQuery: String?, occurredAt: Int64?) {
        self.host = host
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.occurredAt = occurredAt
    }
}
