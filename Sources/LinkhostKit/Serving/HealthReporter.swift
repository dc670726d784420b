import HTTPServer
import OrderedJSON
import Synchronization

/// Builds the `/healthz` JSON: whether the server is serving, for how long, what it serves, and
/// the HTTP counters. Other parts (the request log) add their own sections through `addSection`.
final class HealthReporter: Sendable {
    private let startedAt = ContinuousClock.now
    private let sites: [SiteConfiguration]
    private let statisticsSource = Mutex<(@Sendable () -> HTTPServerStatistics)?>(nil)
    private let draining = Atomic<Bool>(false)

    init(sites: [SiteConfiguration]) {
        self.sites = sites
    }

    func attach(statistics: @escaping @Sendable () -> HTTPServerStatistics) {
        statisticsSource.withLock { $0 = statistics }
    }

    func markDraining() { draining.store(true, ordering: .relaxed) }

    func report() -> JSONValue {
        let elapsed = ContinuousClock.now - startedAt
        let statistics = statisticsSource.withLock { $0 }?()
        var members: [JSONMember] = [
            JSONMember("status", .string(draining.load(ordering: .relaxed) ? "stopping" : "ok")),
            JSONMember("version", .string(LinkhostVersion.current)),
            JSONMember("uptimeSeconds", .number(JSONNumber(Int(elapsed.components.seconds)))),
            JSONMember("sites", .array(sites.map { site in
                .object([
                    JSONMember("id", .string(site.id)),
                    JSONMember("hosts", .array(site.hosts.map { .string($0) })),
                    JSONMember("aasaBytes", .number(JSONNumber(site.aasa.bytes.count))),
                    JSONMember("aasaETag", .string(EntityTag.strong(for: site.aasa.bytes))),
                ])
            })),
        ]
        if let statistics {
            members.append(JSONMember("http", .object([
                JSONMember("requestsInFlight", .number(JSONNumber(statistics.requestsInFlight))),
                JSONMember("responsesSent", .number(JSONNumber(statistics.responsesSent))),
                JSONMember("exchangesCutShort", .number(JSONNumber(statistics.exchangesCutShort))),
                JSONMember("openConnections", .number(JSONNumber(statistics.openConnections))),
            ])))
        }
        return .object(members)
    }

    func response() -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"],
            body: report().serialized(.pretty(indent: 2)) + [0x0A],
            annotation: HitAnnotation(kind: .health)
        )
    }
}
