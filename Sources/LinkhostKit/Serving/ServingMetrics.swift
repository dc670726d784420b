import CoreMetrics
import HTTPServing
import LinkLog
import Synchronization

/// What the public listeners answered, recorded through swift-metrics.
///
/// An app that embeds LinkhostKit gets these metrics in whichever swift-metrics backend it hands
/// `LinkhostServer` (`metricsFactory`; by default the one `MetricsSystem.bootstrap` installed before
/// the server was made, none without a bootstrap):
/// - `linkhost_http_requests_total`, a counter with the dimensions `site` (empty for requests no
///   site saw), `kind` (a ``HitKind`` raw value) and `status_class` (`2xx`, `4xx`, …);
/// - `linkhost_http_request_duration_seconds`, a timer: from a request's head to the end of its answer;
/// - `linkhost_aasa_fetches_total`, a counter of apple-app-site-association answers by
///   `client_class` (a ``ClientClass`` raw value; `aasa-bot` is Apple's CDN);
/// - `linkhost_reports_total`, a counter of app-open and page-event reports by `endpoint` (`opens`,
///   `events`), `outcome` (`accepted`, `rejected`) and `reason` (the refusal's error code, empty
///   when accepted).
///
/// ``descriptions`` gives each one's label with a sentence, for a backend that shows one; the admin
/// listener exposes them in Prometheus's format. Recorded by the completion observer on the worker
/// threads, so the work per request is small: a series' handle is made once, the first time its
/// label set occurs (a label set never seen stays out of the output), and then only incremented.
/// Every label comes from a small fixed set (site ids, kinds, classes, refusal codes), never from
/// a request, so the series stay bounded.
public final class ServingMetrics: Sendable {
    /// A metric's swift-metrics label and what it measures.
    public struct Description: Sendable {
        public let label: String
        public let help: String
    }

    public static let requestsLabel = "linkhost_http_requests_total"
    public static let latencyLabel = "linkhost_http_request_duration_seconds"
    public static let aasaFetchesLabel = "linkhost_aasa_fetches_total"
    public static let reportsLabel = "linkhost_reports_total"

    /// Every metric recorded.
    public static let descriptions = [
        Description(label: requestsLabel, help: "Requests the public listeners answered, by site, kind and status class."),
        Description(label: latencyLabel, help: "Time from a request's head to the end of its answer."),
        Description(label: aasaFetchesLabel, help: "apple-app-site-association answers (200 and 304), by client class."),
        Description(label: reportsLabel, help: "App-open (opens) and page-event (events) reports, accepted or rejected by reason."),
    ]

    /// Upper bounds of the latency histogram's buckets, in seconds, for a backend that takes them:
    /// AASA and pages answer in tens of microseconds, so the low end is fine-grained; anything past
    /// 2.5 s is the `+Inf` bucket.
    public static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private let factory: any MetricsFactory
    /// The request series of the sites served at start, and of requests no site saw (under ""),
    /// read without a lock: found by comparing `siteIDs` one by one while they are few (cheaper
    /// than hashing the id), else through `sitesByID`.
    private let sites: [SiteSeries]
    private let siteIDs: [String]
    private let sitesByID: [String: SiteSeries]
    private static let sitesComparedOneByOne = 16
    /// Those of sites a reload added since.
    private let addedSites = Mutex<[String: SiteSeries]>([:])
    private let latency: Timer
    /// One per client class, in `ClientClass.allCases` order.
    private let aasaFetches: [LazyCounter]
    private static let clientClasses = ClientClass.allCases
    /// Reports are rare, and their refusal codes are not listed in one place: made under a lock.
    private let reports = Mutex<[ReportLabels: Counter]>([:])

    /// - Parameters:
    ///   - factory: the swift-metrics backend to record into. Given rather than bootstrapped, so
    ///     several servers in one process (tests among them) each keep their own.
    ///   - siteIDs: the sites served at start; one a reload adds is counted as well.
    public init(factory: any MetricsFactory, siteIDs: [String]) {
        self.factory = factory
        var sites: [SiteSeries] = []
        for site in siteIDs + [""] where !sites.contains(where: { $0.site == site }) { sites.append(SiteSeries(site: site, factory: factory)) }
        self.sites = sites
        self.siteIDs = sites.map(\.site)
        sitesByID = sites.count > Self.sitesComparedOneByOne ? Dictionary(uniqueKeysWithValues: sites.map { ($0.site, $0) }) : [:]
        latency = Timer(label: Self.latencyLabel, preferredDisplayUnit: .seconds, factory: factory)
        aasaFetches = Self.clientClasses.map { LazyCounter(Self.aasaFetchesLabel, [("client_class", $0.rawValue)], factory: factory) }
    }

    /// Counts one ended exchange of a public listener, from the facts the serving path worked out
    /// and the request's client class (classified by the observer for AASA fetches).
    func observe(_ exchange: HTTPExchange, _ served: ServedRequest, clientClass: ClientClass?) {
        let kind = served.kind
        series(of: served.siteID ?? "").count(kind, status: exchange.status)
        latency.recordNanoseconds(exchange.durationNanoseconds)
        if kind == .aasa, let client = Self.clientClasses.firstIndex(of: clientClass ?? .unknown) {
            aasaFetches[client].increment()
        }
        if let report = Self.report(served) {
            reports.withLock { made in
                if let counter = made[report] { return counter }
                let counter = Counter(label: Self.reportsLabel, dimensions: report.dimensions, factory: factory)
                made[report] = counter
                return counter
            }.increment()
        }
    }

    private func series(of site: String) -> SiteSeries {
        if sitesByID.isEmpty {
            if let index = siteIDs.firstIndex(of: site) { return sites[index] }
        } else if let known = sitesByID[site] {
            return known
        }
        return addedSites.withLock { added in
            if let known = added[site] { return known }
            let made = SiteSeries(site: site, factory: factory)
            added[site] = made
            return made
        }
    }

    /// The report an exchange was, if it was one: accepted when logged as an app open or event, or
    /// refused with the endpoint's code (the HTTP layer's own refusals, an oversized body, carry one
    /// too: `ServedRequest.answeredByServer`).
    private static func report(_ served: ServedRequest) -> ReportLabels? {
        switch served.kind {
        case .appOpen: return ReportLabels(endpoint: "opens", outcome: "accepted", reason: "")
        case .event: return ReportLabels(endpoint: "events", outcome: "accepted", reason: "")
        default:
            let endpoint = served.endpoint == .opens ? "opens" : served.endpoint == .events ? "events" : nil
            guard let endpoint, let rejection = served.rejection else { return nil }
            return ReportLabels(endpoint: endpoint, outcome: "rejected", reason: rejection)
        }
    }
}

/// The labels of one report series.
private struct ReportLabels: Hashable {
    /// `opens` or `events`.
    var endpoint: String
    /// `accepted` or `rejected`.
    var outcome: String
    /// Why it was refused (the error code of the answer); empty when accepted.
    var reason: String

    var dimensions: [(String, String)] { [("endpoint", endpoint), ("outcome", outcome), ("reason", reason)] }
}

/// One site's request counters, one per kind and status class.
private final class SiteSeries: Sendable {
    /// The `status_class` values: the status's first digit, less one.
    private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]
    let site: String
    /// A row per kind (in `HitKind.allCases` order, which `HitKind.row` gives), a column per class.
    private let counters: [LazyCounter]

    init(site: String, factory: any MetricsFactory) {
        self.site = site
        let kinds = HitKind.allCases
        precondition(kinds.indices.allSatisfy { kinds[$0].row == $0 }, "HitKind.row must follow HitKind.allCases")
        counters = kinds.flatMap { kind in
            Self.statusClasses.map { statusClass in
                LazyCounter(ServingMetrics.requestsLabel, [("site", site), ("kind", kind.rawValue), ("status_class", statusClass)], factory: factory)
            }
        }
    }

    func count(_ kind: HitKind, status: Int) {
        counters[kind.row * 5 + min(max(status / 100, 1), 5) - 1].increment()
    }
}

extension HitKind {
    /// Its place in `allCases`: a switch, so counting a request searches nothing.
    fileprivate var row: Int {
        switch self {
        case .aasa: 0
        case .assetLinks: 1
        case .fallback: 2
        case .badLink: 3
        case .notFound: 4
        case .staticFile: 5
        case .health: 6
        case .methodNotAllowed: 7
        case .unknownHost: 8
        case .redirect: 9
        case .rejected: 10
        case .appOpen: 11
        case .event: 12
        }
    }
}

/// A swift-metrics counter made the first time it is incremented, so a label set that never occurs
/// never reaches the backend.
///
/// The request path takes no lock: the counter is made once under `making` and published through
/// an atomic reference (release on store, acquire on load), which this object keeps retained.
private final class LazyCounter: Sendable {
    private let label: String
    private let dimensions: [(String, String)]
    private let factory: any MetricsFactory
    private let made = Atomic<Unmanaged<Counter>?>(nil)
    private let making = Mutex(())

    init(_ label: String, _ dimensions: [(String, String)], factory: any MetricsFactory) {
        self.label = label
        self.dimensions = dimensions
        self.factory = factory
    }

    deinit {
        made.load(ordering: .acquiring)?.release()
    }

    func increment() {
        if let counter = made.load(ordering: .acquiring) {
            counter.takeUnretainedValue().increment()
            return
        }
        making.withLock { _ in
            if made.load(ordering: .acquiring) == nil {
                made.store(Unmanaged.passRetained(Counter(label: label, dimensions: dimensions, factory: factory)), ordering: .releasing)
            }
        }
        made.load(ordering: .acquiring)?.takeUnretainedValue().increment()
    }
}
