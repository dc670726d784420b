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
