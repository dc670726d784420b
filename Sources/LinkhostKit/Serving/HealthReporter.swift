import HTTPServing
import LinkLog
import OrderedJSON
import Synchronization

/// Builds the `/healthz` JSON: whether the server is serving, for how long, what it serves, and
/// the HTTP counters and the hit log's writer.
final class HealthReporter: Sendable {
    private let startedAt = ContinuousClock.now
    /// The `sites` section: fixed while the server runs, so built once (the AASA tags hash the files).
    private let sitesSection: JSONValue
    private let statisticsSource = Mutex<(@Sendable () -> HTTPServerStatistics)?>(nil)
    private let draining = Atomic<Bool>(false)
    private let logSource = Mutex<(@Sendable () -> LogWriterStatus)?>(nil)
    private let logNotes = Mutex<[String]>([])

    init(sites: [SiteConfiguration]) {
        sitesSection = .array(
            sites.map { site in
                var members = [
                    JSONMember("id", .string(site.id)),
                    JSONMember("hosts", .array(site.hosts.map { .string($0) })),
                    JSONMember("aasaBytes", .number(JSONNumber(site.aasa.bytes.count))),
                    JSONMember("aasaETag", .string(EntityTag.strong(for: site.aasa.bytes))),
                ]
                // Only sites with an Android app serve assetlinks.json.
                if let assetLinks = site.assetLinks {
                    members.append(JSONMember("assetLinksBytes", .number(JSONNumber(assetLinks.bytes.count))))
                    members.append(JSONMember("assetLinksETag", .string(EntityTag.strong(for: assetLinks.bytes))))
                }
                return .object(members)
            })
    }

    func attach(statistics: @escaping @Sendable () -> HTTPServerStatistics) {
        statisticsSource.withLock { $0 = statistics }
    }

    func markDraining() { draining.store(true, ordering: .relaxed) }

    /// Reports the hit log's writer; `notes` are standing problems (secrets not hashable, ...).
    func attach(log: @escaping @Sendable () -> LogWriterStatus, notes: [String]) {
        logSource.withLock { $0 = log }
        logNotes.withLock { $0 = notes }
    }

    func report() -> JSONValue {
        let elapsed = ContinuousClock.now - startedAt
        let statistics = statisticsSource.withLock { $0 }?()
        let log = logSource.withLock { $0 }?()
        let notes = logNotes.withLock { $0 }
        let state =
            draining.load(ordering: .relaxed) ? "stopping" : (log.map { !$0.isHealthy || $0.dropped > 0 } ?? false) || !notes.isEmpty ? "degraded" : "ok"
        var members: [JSONMember] = [
            JSONMember("status", .string(state)),
            JSONMember("version", .string(LinkhostVersion.current)),
            JSONMember("uptimeSeconds", .number(JSONNumber(Int(elapsed.components.seconds)))),
            JSONMember("sites", sitesSection),
        ]
        if let statistics {
            members.append(
                JSONMember(
                    "http",
                    .object([
                        JSONMember("requestsInFlight", .number(JSONNumber(statistics.requestsInFlight))),
                        JSONMember("responsesSent", .number(JSONNumber(statistics.responsesSent))),
                        JSONMember("exchangesCutShort", .number(JSONNumber(statistics.exchangesCutShort))),
                        JSONMember("openConnections", .number(JSONNumber(statistics.openConnections))),
                    ])))
        }
        if let log {
            members.append(
                JSONMember(
                    "log",
                    .object([
                        JSONMember("database", .string(log.database)),
                        JSONMember("healthy", .bool(log.isHealthy)),
                        JSONMember("lastError", log.lastError.map { .string($0) } ?? .null),
                        JSONMember("failingSinceMs", log.failingSinceMilliseconds.map { .number(JSONNumber(Int($0))) } ?? .null),
                        JSONMember("enqueued", .number(JSONNumber(log.enqueued))),
                        JSONMember("written", .number(JSONNumber(log.written))),
                        JSONMember("pending", .number(JSONNumber(log.pending))),
                        JSONMember("dropped", .number(JSONNumber(log.dropped))),
                        JSONMember("notes", .array(notes.map { .string($0) })),
                    ])))
        } else {
            members.append(JSONMember("log", .object([JSONMember("enabled", .bool(false))])))
        }
        return .object(members)
    }

    func response() -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"],
            body: report().serialized(.pretty(indent: 2)) + [0x0A]
        )
    }
}
