import HTTPServing
import LinkLog
import Synchronization

/// Counters of what the public listeners answered, for `/metrics` on the admin listener: requests by
/// site, kind and status class, a latency histogram, AASA fetches by client class, and app-open and
/// page-event reports accepted or refused (by reason). Fed by the completion observer on the worker
/// threads, so one short lock per request; every label comes from a small fixed set (site ids from
/// the config, kinds, classes, refusal codes), never from a request, so the series stay bounded.
public final class ServingMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds: AASA and pages answer in tens of
    /// microseconds, so the low end is fine-grained; anything past 2.5 s is the `+Inf` bucket.
    public static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private let counts = Mutex(ServingMetricsSnapshot())

    public init() {}

    /// Counts one ended exchange of a public listener.
    /// The `statusClass` labels, made once rather than interpolated for every request.
    private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    /// Counts one ended exchange; `served.clientClass` is filled in for AASA fetches.
    func observe(_ exchange: HTTPExchange, _ served: ServedRequest) {
        let kind = served.kind
        let request = RequestLabels(
            site: served.siteID ?? "", kind: kind.rawValue, statusClass: Self.statusClasses[min(max(exchange.status / 100, 1), 5) - 1])
        let seconds = Double(exchange.durationNanoseconds) / 1_000_000_000
        let bucket = Self.latencyBounds.firstIndex { seconds <= $0 } ?? Self.latencyBounds.count
        let aasaClient = kind == .aasa ? (served.clientClass ?? .unknown).rawValue : nil
        let report = Self.report(exchange, served)
        counts.withLock { snapshot in
            snapshot.requests[request, default: 0] += 1
            snapshot.latencyCounts[bucket] += 1
            snapshot.latencySumSeconds += seconds
            if let aasaClient { snapshot.aasaFetches[aasaClient, default: 0] += 1 }
            if let report { snapshot.reports[report, default: 0] += 1 }
        }
    }

    /// The report an exchange was, if it was one: accepted when logged as an app open or event,
    /// refused with the endpoint's code, or refused by the HTTP layer (an oversized body).
    private static func report(_ exchange: HTTPExchange, _ served: ServedRequest) -> ReportLabels? {
        let endpoint = served.endpoint == .opens ? "opens" : served.endpoint == .events ? "events" : nil
        switch served.kind {
        case .appOpen: return ReportLabels(endpoint: "opens", outcome: "accepted", reason: "")
        case .event: return ReportLabels(endpoint: "events", outcome: "accepted", reason: "")
        default:
            guard let endpoint, let rejection = served.rejection else { return nil }
            return ReportLabels(endpoint: endpoint, outcome: "rejected", reason: rejection)
        }
    }

    /// The counts so far.
    public func snapshot() -> ServingMetricsSnapshot { counts.withLock { $0 } }
}

/// The labels of one request series.
public struct RequestLabels: Sendable, Hashable {
    public var site: String
    public var kind: String
    /// `2xx`, `4xx`, …
    public var statusClass: String
}

/// The labels of one report series.
public struct ReportLabels: Sendable, Hashable {
    /// `opens` or `events`.
    public var endpoint: String
    /// `accepted` or `rejected`.
    public var outcome: String
    /// Why it was refused (the error code of the answer); empty when accepted.
    public var reason: String
}

/// `ServingMetrics` at one moment.
public struct ServingMetricsSnapshot: Sendable {
    public var requests: [RequestLabels: Int] = [:]
    /// Exchanges per latency bucket (not cumulative), the last one past every bound.
    public var latencyCounts = [Int](repeating: 0, count: ServingMetrics.latencyBounds.count + 1)
    public var latencySumSeconds = 0.0
    public var aasaFetches: [String: Int] = [:]
    public var reports: [ReportLabels: Int] = [:]
}
