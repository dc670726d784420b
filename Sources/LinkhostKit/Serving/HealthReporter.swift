import HTTPServing
import LinkLog
import OrderedJSON
import Synchronization

/// The server's health: its status alone for the public `/healthz`, and the detailed report — how
/// long it has run, what it serves, the HTTP counters, the hit log's writer, the last reload, and
/// the CDN check when it is on — for the admin listener's `/healthz` and `linkhost probe --details`.
///
/// Decision: the public listener answers every host on the internet, so it says only `status`
/// (what a load balancer or the container's HEALTHCHECK reads). The details name files, the log's
/// database and a refused config's problems, which are the operator's business: they are shown
/// only behind the admin token.
///
/// Everything it reports on is given when it is made: the listeners' counters (made before the
/// listeners, which hold this report through their responder), the log's writer, and the CDN check.
final class HealthReporter: Sendable {
    private let startedAt = ContinuousClock.now
    private let listeners: [HTTPServerCounters]
    private let draining = Atomic<Bool>(false)
    private let log: LogWriter?
    /// Standing problems of the log (secrets not hashable, ...).
    private let logNotes: [String]
    private let cdnWatch: CDNWatch?
    /// Every reload's outcome, the last one shown.
    let reloads = ReloadHistory()
    /// The certificates ACME manages, when it does.
    let certificates = CertificateHealth()
    /// The certificates HTTPS serves, when it runs.
    let served = ServedCertificateHealth()

    init(listeners: [HTTPServerCounters] = [], log: LogWriter? = nil, logNotes: [String] = [], cdnWatch: CDNWatch? = nil) {
        self.listeners = listeners
        self.log = log
        self.logNotes = logNotes
        self.cdnWatch = cdnWatch
    }

    /// The `sites` section for a set of sites: built once per serving set (the AASA tags hash the
    /// files), so each report shows the sites of the set in service.
    static func sitesSection(_ sites: [SiteConfiguration]) -> JSONValue {
        .array(
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

    func markDraining() { draining.store(true, ordering: .relaxed) }

    /// Whether the server has begun to stop.
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// `stopping` once the server has begun to stop; else `degraded` while the log cannot write,
    /// has dropped a row or has a standing problem, or the last reload was refused; else `ok`.
    ///
    /// Decision: a refused last reload makes the status `degraded` (until a reload succeeds): the
    /// server still serves, but not the config on disk, which is what an operator's alert on the
    /// status should catch. So does a certificate ACME manages that is not served, expires within
    /// 14 days, or has failed to renew for a day (`CertificateRecord.isDegraded`), and any served
    /// certificate, files' too, that expires within 14 days (`ServedCertificateHealth`). The CDN check
    /// never does: a CDN copy lags every change by hours, which is normal, so it has its own
    /// section instead.
    private func status(log: LogWriterStatus?) -> String {
        if draining.load(ordering: .relaxed) { return "stopping" }
        let logDegraded = (log.map { !$0.isHealthy || $0.dropped > 0 || $0.journal.fileProblem != nil } ?? false) || !logNotes.isEmpty
        let expiring = !served.expiringSoon().isEmpty
        return logDegraded || reloads.lastFailed || certificates.current?.degraded == true || expiring ? "degraded" : "ok"
    }

    /// The status alone (see `status(log:)`).
    var status: String { status(log: log?.status) }

    /// The detailed report, with `sites` the section of the serving set in service.
    func report(sites: JSONValue) -> JSONValue {
        let elapsed = ContinuousClock.now - startedAt
        let statistics = listeners.isEmpty ? nil : listeners.map(\.statistics).reduce(.zero, +)
        let log = log?.status
        let notes = logNotes
        let state = status(log: log)
        var members: [JSONMember] = [
            JSONMember("status", .string(state)),
            JSONMember("version", .string(LinkhostVersion.current)),
            JSONMember("uptimeSeconds", .number(JSONNumber(Int(elapsed.components.seconds)))),
            JSONMember("sites", sites),
            JSONMember("reload", reloads.json),
        ]
        if let certificates = certificates.current {
            members.append(JSONMember("certificates", certificates.section))
        }
        if let tls = served.section() {
            members.append(JSONMember("tls", tls))
        }
        if let cdnCheck = cdnWatch?.healthSection {
            members.append(JSONMember("cdnCheck", cdnCheck))
        }
        if let statistics {
            members.append(
                JSONMember(
                    "http",
                    .object([
                        JSONMember("requestsInFlight", .number(JSONNumber(statistics.requestsInFlight))),
                        JSONMember("responsesSent", .number(JSONNumber(statistics.responsesSent))),
                        JSONMember("exchangesCutShort", .number(JSONNumber(statistics.exchangesCutShort))),
                        JSONMember("openConnections", .number(JSONNumber(statistics.openConnections))),
                        JSONMember("connectionsRefused", .number(JSONNumber(statistics.connectionsRefused))),
                        JSONMember("connectionsClosedByServer", .number(JSONNumber(statistics.connectionsClosedByServer))),
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
                        JSONMember("batches", .number(JSONNumber(log.batches))),
                        JSONMember("pending", .number(JSONNumber(log.pending))),
                        JSONMember("dropped", .number(JSONNumber(log.dropped))),
                        JSONMember("backlogSeconds", .number(JSONNumber(log.backlogSeconds))),
                        JSONMember("cutShort", .number(JSONNumber(log.cutShort))),
                        JSONMember("refused", .number(JSONNumber(log.refused))),
                        JSONMember("outcomeUnknown", .number(JSONNumber(log.outcomeUnknown))),
                        JSONMember("recovered", .number(JSONNumber(log.recoveredWritten))),
                        JSONMember(
                            "journal",
                            .object([
                                JSONMember("path", .string(log.journal.path)),
                                JSONMember("sizeBytes", .number(JSONNumber(Int(log.journal.ringSize)))),
                                JSONMember("usedBytes", .number(JSONNumber(Int(log.journal.usedBytes)))),
                                JSONMember("droppedFull", .number(JSONNumber(log.journal.droppedFull))),
                                JSONMember("failedWrites", .number(JSONNumber(log.journal.failedWrites))),
                                JSONMember("skippedDamaged", .number(JSONNumber(log.skippedDamaged))),
                                JSONMember("syncError", log.journal.syncFailure.map { .string($0) } ?? .null),
                                JSONMember("fileProblem", log.journal.fileProblem.map { .string($0) } ?? .null),
                                JSONMember("replacements", .number(JSONNumber(log.journal.replacements))),
                                JSONMember("lastReplacement", log.journal.lastReplacement.map { .string($0) } ?? .null),
                            ])),
                        JSONMember("notes", .array(notes.map { .string($0) })),
                    ])))
        } else {
            members.append(JSONMember("log", .object([JSONMember("enabled", .bool(false))])))
        }
        return .object(members)
    }

    /// The public `/healthz` answer: `{"status": …}` and nothing else, `200` whatever the status
    /// (a degraded server still serves; the status is for whoever reads it).
    func publicResponse() -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"],
            body: JSONValue.object([JSONMember("status", .string(status))]).serialized(.pretty(indent: 2)) + [0x0A]
        )
    }
}
