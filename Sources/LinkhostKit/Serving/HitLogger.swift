import HTTPServing
import LinkLog
import LinkLogDatabases
import LinkRules
import Logging
import PercentCoding

/// Turns every answered exchange into a hit-log row and hands it to the background writer, never
/// blocking the request: the observer runs on the worker thread after the response went out, and
/// `LogWriter.enqueue` only appends to an in-memory queue.
///
/// Privacy is applied here, before anything reaches the queue: parameters marked secret in a site's
/// rules (invite codes) become keyed-hash tokens in the parameters and in the path, client addresses
/// are truncated or omitted, and only `utm_*` and the configured tracked parameters are kept.
final class HitLogger: Sendable {
    let writer: LogWriter
    private let hasher: SecretHasher?
    /// Why secrets cannot be hashed (so they are dropped), for health and the start-up log.
    let hasherProblem: String?
    private let settings: LogSettings
    private let tracked: Set<String>
    private let clientClasses = ClientClassCache()

    /// The log's settings are fixed for the server's life (a reload that changes them is told it
    /// needs a restart); the sites' rules come with each exchange (`HitLogRules`).
    init(settings: LogSettings, logger: Logger) throws {
        self.settings = settings
        tracked = Set(settings.trackedParameters)
        var writerLogger = logger
        writerLogger[metadataKey: "component"] = "log"
        let database = LogDatabaseLocator.database(at: settings.databasePath, secretKeyFile: settings.secretKeyFile, spoolFile: settings.spoolFile)
        writer = try LogWriter(
            configuration: LogWriterConfiguration(
                database: database, queueCapacity: settings.queueCapacity, retentionDays: settings.retentionDays, logger: writerLogger))
        do {
            hasher = try SecretHasher(keyFile: database.secretKeyFilePath)
            hasherProblem = nil
        } catch {
            hasher = nil
            hasherProblem = "secret parameters are not logged: the hash key \(database.secretKeyFilePath) is unusable (\(error))"
            logger.warning("\(hasherProblem ?? "")")
        }
    }

    /// The completion observer: one row per response sent in full. `annotation` is `nil` for answers
    /// the HTTP layer gave by itself (a body over the limit), logged as `rejected` — except on the
    /// report endpoints, whose refusals never leave a row. `rules` are those of the serving set that
    /// answered.
    func observe(_ exchange: HTTPExchange, annotation: HitAnnotation?, rules: HitLogRules?) {
        guard exchange.wasSent, annotation?.logged ?? !IngestEndpoints.paths.contains(exchange.request.path) else { return }
        let request = exchange.request
        let siteRules = rules?.site(annotation?.siteID)
        // App opens and page events log the link they report, not the API request.
        let reported = annotation?.reported
        let rawPath = reported?.rawPath ?? request.rawPath
        let query: [(name: String, value: String)] =
            reported.map { target in QueryString(target.rawQuery ?? "", decoding: .form).map { ($0.name, $0.value ?? "") } }
            ?? request.queryItems.map { ($0.name, $0.value ?? "") }
        var path = rawPath
        var secretToken: String?
        if let annotation, let ruleName = annotation.rule, let rule = siteRules?.rulesWithSecrets[ruleName] {
            // Routing passed the placeholders along; the path is rebuilt from them, not matched again.
            var replacements: [String: String] = [:]
            for parameter in rule.parameters where parameter.isSecret {
                let value: String?
                switch parameter.location {
                case .path: value = annotation.pathCaptures[parameter.name].map { PercentCoding.decode($0).validText ?? $0 } ?? ""
                case .query: value = query.first { $0.name == parameter.name }?.value
                }
                guard let value else { continue }
                let token = hasher.map { $0.token(for: value) }
                if secretToken == nil { secretToken = token }
                if parameter.location == .path { replacements[parameter.name] = token.map { PercentCoding.encode($0) } ?? "-" }
            }
            if !replacements.isEmpty { path = rule.path.rawPath(captures: annotation.pathCaptures, replacing: replacements) }
        }
        let userAgent = request.headers["User-Agent"]
        var record = LogRecord(
            timestampMilliseconds: reported?.occurredAt ?? LogRecord.currentTimeMilliseconds(),
            siteID: annotation?.siteID,
            host: reported?.host ?? request.hostName ?? "",
            method: request.method,
            path: path,
            kind: (annotation?.kind ?? .rejected).rawValue,
            rule: annotation?.rule,
            status: exchange.status,
            durationMicroseconds: Int64(exchange.durationNanoseconds / 1000),
            referrer: request.headers["Referer"],
            userAgent: userAgent,
            clientClass: clientClasses.classify(userAgent).rawValue,
            clientAddress: settings.clientAddress.apply(to: request.clientAddress)
        )
        record.event = annotation?.event
        record.secretToken = secretToken
        record.takeParameters(from: query, tracked: tracked, secret: siteRules?.secretNames ?? [], hasher: hasher)
        writer.enqueue(record)
    }
}
