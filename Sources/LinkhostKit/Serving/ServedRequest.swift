import Glibc
import HTTPServing
import HitJournal
import LinkLog
import LinkRules

/// A public request as linkhost served it: what the serving path worked out about it, each fact at
/// most once and only when something needed it. The responders fill it in while they answer; it
/// travels with the response to the end of the exchange, where the metrics and the hit log — two
/// observers of the same finished exchange — read it and work out nothing again.
///
/// An AASA or static-file request pays for none of the page facts: no query split, no routing, and
/// its client class is classified once, at the end, only when the log or the metrics want it.
@dynamicMemberLookup
struct ServedRequest: Sendable {
    /// The facts, in one object shared by copies until one of them changes a fact (copy on write);
    /// `served.kind` reads and writes `Facts.kind` through the dynamic member subscripts below.
    /// The facts travel from the responder through the server to both observers, and each copy of
    /// a dozen separately counted references cost a dozen retains and releases; one reference
    /// costs one. Unchecked `Sendable`: an instance
    /// is only ever changed while one value holds it. For the same reason its properties skip the
    /// run-time exclusivity checks: a value's own accesses are checked at compile time, and no two
    /// values ever reach one instance while it changes.
    final class Facts: @unchecked Sendable {
        /// Which of the server's fixed endpoints the path names, decided once from the path.
        let endpoint: PublicEndpoint
        /// What the response was.
        @exclusivity(unchecked) var kind: HitKind
        /// The site that answered (its id, rules and secret parameters); `nil` for unknown hosts.
        @exclusivity(unchecked) var site: HostedSite?
        /// The link rule that matched (fallback pages, bad links, reported links).
        @exclusivity(unchecked) var rule: LinkRule?
        /// That rule's path placeholders as sent (still percent-encoded), passed on from routing so
        /// the log can replace secret ones without matching the path a second time.
        @exclusivity(unchecked) var pathCaptures: [String: String] = [:]
        /// The query of the link being logged (the request's own, or a reported link's), split once
        /// as sent (`LinkRouter.queryItems`); `nil` until something split it.
        @exclusivity(unchecked) var query: [(name: String, value: String)]?
        /// The client class of the request's User-Agent when a page classified it for its variant
        /// (otherwise the observer classifies it at the end when the log or metrics want it).
        @exclusivity(unchecked) var clientClass: ClientClass?
        /// For app opens and page events: the link that was reported, logged instead of the API path.
        @exclusivity(unchecked) var reported: ReportedTarget?
        /// The page event's name, or how the app was opened (`universal-link`, …) for app opens.
        @exclusivity(unchecked) var event: String?
        /// The view token: the one a link's page issued to this view, or the one an app open
        /// reported (`ViewToken`); `nil` for everything else.
        @exclusivity(unchecked) var viewToken: String?
        /// Whether `query` is the request's own without an `lh_view` it carried (a copied link).
        @exclusivity(unchecked) var viewTokenRemoved = false
        /// False for answers that must leave no row (refused reports).
        @exclusivity(unchecked) var logged = true
        /// Why a report was refused (`unauthorized`, `rate_limited`, …), for the metrics; `nil` otherwise.
        @exclusivity(unchecked) var rejection: String?
        /// Where the hit log put this exchange's record before the response went out
        /// (`HitLogger.answered`), for its completion at the end; `nil` when it put none.
        @exclusivity(unchecked) var journalTicket: JournalTicket?

        init(endpoint: PublicEndpoint, kind: HitKind, site: HostedSite?) {
            self.endpoint = endpoint
            self.kind = kind
            self.site = site
        }

        func copy() -> Facts {
            let copy = Facts(endpoint: endpoint, kind: kind, site: site)
            copy.rule = rule
            copy.pathCaptures = pathCaptures
            copy.query = query
            copy.clientClass = clientClass
            copy.reported = reported
            copy.event = event
            copy.viewToken = viewToken
            copy.viewTokenRemoved = viewTokenRemoved
            copy.logged = logged
            copy.rejection = rejection
            copy.journalTicket = journalTicket
            return copy
        }
    }

    private var facts: Facts

    init(endpoint: PublicEndpoint, kind: HitKind, site: HostedSite? = nil) {
        facts = Facts(endpoint: endpoint, kind: kind, site: site)
    }

    subscript<Value>(dynamicMember fact: KeyPath<Facts, Value>) -> Value {
        facts[keyPath: fact]
    }

    subscript<Value>(dynamicMember fact: ReferenceWritableKeyPath<Facts, Value>) -> Value {
        get { facts[keyPath: fact] }
        set {
            if !isKnownUniquelyReferenced(&facts) { facts = facts.copy() }
            facts[keyPath: fact] = newValue
        }
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
    var siteID: String? { facts.site?.configuration.id }
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

    /// The fixed paths and what they name (`/static/…` is matched by its prefix).
    private static let fixedPaths: [(path: [UInt8], endpoint: PublicEndpoint)] = [
        (Array("/.well-known/apple-app-site-association".utf8), .aasa), (Array("/apple-app-site-association".utf8), .aasa),
        (Array("/.well-known/assetlinks.json".utf8), .assetLinks), (Array("/healthz".utf8), .health), (Array(opensPath.utf8), .opens),
        (Array(eventsPath.utf8), .events), (Array("/robots.txt".utf8), .staticFile),
    ]

    init(path: String) {
        // Bytes, compared lengths first: nearly every path is a page, told apart by its length
        // alone, and `==` on strings (which allows for canonical equivalence) costs more, on
        // every request.
        var path = path
        self = path.withUTF8 { bytes in
            for index in Self.fixedPaths.indices where Self.fixedPaths[index].path.count == bytes.count {
                let matches = Self.fixedPaths[index].path.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                if matches { return Self.fixedPaths[index].endpoint }
            }
            return bytes.starts(with: "/static/".utf8) ? .staticFile : .page
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
