import HTTPServing
import LinkLog
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
    private let sites: [String: SiteLogRules]
    private let clientClasses = ClientClassCache()

    /// What the logger needs of a site: its secret names and the rules with secret path segments.
    private struct SiteLogRules: Sendable {
        let secretNames: Set<String>
        let rulesWithSecretPaths: [String: LinkRule]
    }

    init(settings: LogSettings, sites: [SiteConfiguration], logger: Logger) throws {
        self.settings = settings
        tracked = Set(settings.trackedParameters)
        var rules: [String: SiteLogRules] = [:]
        for site in sites {
            let secretNames = Set(site.router.rules.flatMap(\.secretParameterNames))
            let pathRules = site.router.rules.filter { rule in rule.parameters.contains { $0.isSecret && $0.location == .path } }
            rules[site.id] = SiteLogRules(secretNames: secretNames, rulesWithSecretPaths: Dictionary(uniqueKeysWithValues: pathRules.map { ($0.name, $0) }))
        }
        self.sites = rules
        var writerLogger = logger
        writerLogger[metadataKey: "component"] = "log"
        writer = try LogWriter(
            configuration: LogWriterConfiguration(
                databasePath: settings.databasePath, queueCapacity: settings.queueCapacity, retentionDays: settings.retentionDays, logger: writerLogger))
        do {
            hasher = try SecretHasher(keyFile: SecretHasher.keyFilePath(forDatabase: settings.databasePath))
            hasherProblem = nil
        } catch {
            hasher = nil
            hasherProblem =
                "secret parameters are not logged: the hash key \(SecretHasher.keyFilePath(forDatabase: settings.databasePath)) is unusable (\(error))"
            logger.warning("\(hasherProblem ?? "")")
        }
    }

    /// The completion observer: one row per response sent in full. `annotation` is `nil` for answers
    /// the HTTP layer gave by itself (a body over the limit), logged as `rejected`.
    func observe(_ exchange: HTTPExchange, annotation: HitAnnotation?) {
        guard exchange.wasSent else { return }
        let request = exchange.request
        let siteRules = annotation?.siteID.flatMap { sites[$0] }
        var path = request.rawPath
        if let annotation, let ruleName = annotation.rule, let rule = siteRules?.rulesWithSecretPaths[ruleName] {
            // Routing passed the placeholders along; the path is rebuilt from them, not matched again.
            var replacements: [String: String] = [:]
            for parameter in rule.parameters where parameter.isSecret && parameter.location == .path {
                let value = annotation.pathCaptures[parameter.name].map { PercentCoding.decode($0).validText ?? $0 } ?? ""
                replacements[parameter.name] = hasher.map { PercentCoding.encode($0.token(for: value)) } ?? "-"
            }
            path = rule.path.rawPath(captures: annotation.pathCaptures, replacing: replacements)
        }
        let userAgent = request.headers["User-Agent"]
        var record = LogRecord(
            timestampMilliseconds: LogRecord.currentTimeMilliseconds(),
            siteID: annotation?.siteID,
            host: request.hostName ?? "",
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
        record.takeParameters(
            from: request.queryItems.map { ($0.name, $0.value ?? "") },
            tracked: tracked, secret: siteRules?.secretNames ?? [], hasher: hasher)
        writer.enqueue(record)
    }
}
