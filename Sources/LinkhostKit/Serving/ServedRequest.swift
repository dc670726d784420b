import HTTPServing
import LinkLog
import LinkRules

/// A public request as linkhost served it: what the serving path worked out about it, each fact at
/// most once and only when something needed it. The responders fill it in while they answer; it
/// travels with the response to the end of the exchange, where the metrics and the hit log — two
/// observers of the same finished exchange — read it and work out nothing again.
///
/// An AASA or static-file request pays for none of the page facts: no query split, no routing, and
/// its client class is classified once, at the end, only when the log or the metrics want it.
struct ServedRequest: Sendable {
    /// Which of the server's fixed endpoints the path names, decided once from the path.
    let endpoint: PublicEndpoint
    /// What the response was.
    var kind: HitKind
    /// The site that answered (its id, rules and secret parameters); `nil` for unknown hosts.
    var site: HostedSite?
    /// The link rule that matched (fallback pages, bad links, reported links).
    var rule: LinkRule?
    /// That rule's path placeholders as sent (still percent-encoded), passed on from routing so the
    /// log can replace secret ones without matching the path a second time.
    var pathCaptures: [String: String] = [:]
    /// The query of the link being logged (the request's own, or a reported link's), split once as
    /// sent (`LinkRouter.queryItems`); `nil` until something split it.
    var query: [(name: String, value: String)]?
    /// The client class of the request's User-Agent, once classified (pages need it for their
    /// variant; otherwise the observer classifies it at the end when the log or metrics want it).
    var clientClass: ClientClass?
    /// For app opens and page events: the link that was reported, logged instead of the API path.
    var reported: ReportedTarget?
    /// The page event's name, or how the app was opened (`universal-link`, …) for app opens.
    var event: String?
    /// The view token: the one a link's page issued to this view, or the one an app open reported
    /// (`ViewToken`); `nil` for everything else.
    var viewToken: String?
    /// Whether `query` is the request's own without an `lh_view` it carried (a copied link).
    var viewTokenRemoved = false
    /// False for answers that must leave no row (refused reports).
    var logged = true
    /// Why a report was refused (`unauthorized`, `rate_limited`, …), for the metrics; `nil` otherwise.
    var rejection: String?

    init(endpoint: PublicEndpoint, kind: HitKind, site: HostedSite? = nil) {
        self.endpoint = endpoint
        self.kind = kind
        self.site = site
    }

    /// An exchange the HTTP layer answered by itself (a body over the limit): `rejected`, and on the
    /// report endpoints, whose refusals leave no row, not logged and counted as a refused report.
    static func answeredByServer(_ exchange: HTTPExchange) -> ServedRequest {
        let endpoint = PublicEndpoint(path: exchange.request.path)
        var served = ServedRequest(endpoint: endpoint, kind: .rejected)
        if endpoint.isReport {
            served.logged = false
            served.rejection = exchange.status == 413 ? "payload_too_large" : "bad_request"
        }
        return served
    }

    /// The id of the site that answered.
    var siteID: String? { site?.configuration.id }
}

/// The paths with a meaning of their own on every host, and the rest (a site's pages).
enum PublicEndpoint: Sendable, Equatable {
    /// `POST /v1/opens`: an app reports the link that opened it.
    case opens
    /// `POST /v1/events`: a fallback page reports a button.
    case events
    case health
    /// The apple-app-site-association file, at either of its paths.
    case aasa
    /// Android's `/.well-known/assetlinks.json` (Android reads only this path).
    case assetLinks
    /// `/static/…` and `/robots.txt`.
    case staticFile
    /// Anything else: a fallback page (or a 404 page).
    case page

    static let opensPath = "/v1/opens"
    static let eventsPath = "/v1/events"

    init(path: String) {
        switch path {
        case "/.well-known/apple-app-site-association", "/apple-app-site-association": self = .aasa
        case "/.well-known/assetlinks.json": self = .assetLinks
        case "/healthz": self = .health
        case Self.opensPath: self = .opens
        case Self.eventsPath: self = .events
        case "/robots.txt": self = .staticFile
        default: self = path.hasPrefix("/static/") ? .staticFile : .page
        }
    }

    /// The report endpoints, which answer in JSON, take POST and never log a refusal.
    var isReport: Bool { self == .opens || self == .events }
}

/// A link reported to the ingest endpoints, as it is logged: the web link's host and path (its
/// query is `ServedRequest.query`).
struct ReportedTarget: Sendable, Equatable {
    var host: String
    var rawPath: String
    /// When it happened by the reporter's clock (UTC milliseconds), when it said so.
    var occurredAt: Int64?
}
