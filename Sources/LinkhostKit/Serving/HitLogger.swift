import HTTPServing
import LinkLog
import LinkLogDatabases
import LinkRules
import Logging
import PercentCoding

/// Turns every answered exchange into a hit-log record in the writer's journal, never blocking the
/// request: the record is appended when the answer is ready and before it is queued (`answered`),
/// so a process killed after that still leaves it, and its completion — sent in full or not, and
/// how long it took — is written into it when the exchange ends (`observe`).
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

    /// The log's settings are fixed for the server's life (a reload that changes them is told it
    /// needs a restart); the sites' rules come with each exchange (`ServedRequest.site`).
    init(settings: LogSettings, logger: Logger) throws {
        self.settings = settings
        tracked = Set(settings.trackedParameters)
        var writerLogger = logger
        writerLogger[metadataKey: "component"] = "log"
        let database = LogDatabaseLocator.database(at: settings.databasePath, secretKeyFile: settings.secretKeyFile, spoolFile: settings.spoolFile)
        writer = try LogWriter(
            configuration: LogWriterConfiguration(
                database: database, journalPath: settings.journalPath, journalSizeBytes: UInt64(settings.journalSizeBytes),
                journalSyncInterval: .milliseconds(settings.journalSyncIntervalMilliseconds), retentionDays: settings.retentionDays,
                logger: writerLogger))
        do {
            hasher = try SecretHasher(keyFile: database.secretKeyFilePath)
            hasherProblem = nil
        } catch {
            hasher = nil
            hasherProblem = "secret parameters are not logged: the hash key \(database.secretKeyFilePath) is unusable (\(error))"
            logger.warning("\(hasherProblem ?? "")")
        }
    }

    /// The answer to `request` is ready and about to be queued: its record goes into the journal now,
    /// and `served` keeps where (refused reports leave none).
    func answered(_ request: HTTPRequest, status: Int, _ served: inout ServedRequest, clientClass: ClientClass?) {
        guard served.logged else { return }
        served.journalTicket = writer.begin(record(request, served, status: status, durationMicroseconds: 0, clientClass: clientClass))
    }

    /// The exchange ended: its record's completion is written (a response not sent in full leaves no
    /// row). An exchange the server answered by itself (an oversized body) had no record yet: it
    /// gets one now, if its response went out.
    func observe(_ exchange: HTTPExchange, _ served: ServedRequest, clientClass: ClientClass?) {
        let duration = exchange.durationNanoseconds / 1000
        if let ticket = served.journalTicket {
            writer.complete(ticket, sent: exchange.wasSent, durationMicroseconds: duration)
            return
        }
        guard exchange.wasSent, served.logged else { return }
        writer.enqueue(record(exchange.request, served, status: exchange.status, durationMicroseconds: Int64(duration), clientClass: clientClass))
    }

    /// The row for `request` as answered, from the facts the serving path worked out (`served`) and
    /// the request's client class (the page's, or the observer's when it had none).
    private func record(
        _ request: HTTPRequest, _ served: ServedRequest, status: Int, durationMicroseconds: Int64, clientClass: ClientClass?
    ) -> LogRecord {
        let site = served.site
        // App opens and page events log the link they report, not the API request.
        let reported = served.reported
        let rawPath = reported?.rawPath ?? request.rawPath
        // The link's query split as sent, without a copied link's view token (which is that view's).
        let query: [(name: String, value: String)]
        var pageQuery = request.rawQuery
        if let split = served.query {
            query = split
            if served.viewTokenRemoved { pageQuery = ViewToken.removed(fromRawQuery: pageQuery) }
        } else {
            let kept = ViewToken.removed(from: LinkRouter.queryItems(request.rawQuery), rawQuery: request.rawQuery)
            query = kept.0
            pageQuery = kept.1
        }
        // A secret's token is asked for up to three times (the path, the query kept, the tracked
        // parameters), nearly always for the same value: it is made once.
        var lastToken: (value: String, token: String)?
        func token(for value: String, with hasher: SecretHasher) -> String {
            if let lastToken, lastToken.value == value { return lastToken.token }
            let made = hasher.token(for: value)
            lastToken = (value, made)
            return made
        }
        var path = rawPath
        var secretToken: String?
        if let rule = served.rule, let site, site.rulesWithSecrets.contains(rule.name) {
            // Routing passed the placeholders along; the path is rebuilt from them, not matched again.
            var replacements: [String: String] = [:]
            for parameter in rule.parameters where parameter.isSecret {
                let value: String?
                switch parameter.location {
                case .path: value = served.pathCaptures[parameter.name].map { PercentCoding.decode($0).validText ?? $0 } ?? ""
                case .query: value = Self.formValue(of: parameter.name, in: query)
                }
                guard let value else { continue }
                let token = hasher.map { token(for: value, with: $0) }
                if secretToken == nil { secretToken = token }
                if parameter.location == .path { replacements[parameter.name] = token.map { PercentCoding.encode($0) } ?? "-" }
            }
            if !replacements.isEmpty { path = rule.path.rawPath(captures: served.pathCaptures, replacing: replacements) }
        }
        // Stamped before the response goes out (less the exchange's duration when it has one): the
        // client cannot have sent its next request yet (a page view, then the app open it led to).
        let arrived = LogRecord.currentTimeMilliseconds() - durationMicroseconds / 1000
        var record = LogRecord(
            timestampMilliseconds: reported?.occurredAt ?? arrived,
            siteID: served.siteID,
            host: reported?.host ?? request.hostName ?? "",
            method: request.method,
            path: path,
            kind: served.kind.rawValue,
            rule: served.rule?.name,
            status: status,
            durationMicroseconds: durationMicroseconds,
            referrer: request.headers["Referer"],
            userAgent: request.headers["User-Agent"],
            clientClass: clientClass?.rawValue,
            clientAddress: settings.clientAddress.apply(to: request.clientAddress)
        )
        record.event = served.event
        record.secretToken = secretToken
        record.viewToken = served.viewToken
        if clientClass == .inAppBrowser { record.inApp = ClientClassifier.inAppBrowser(record.userAgent) }
        record.referrerHost = ReferrerHost.of(record.referrer)
        record.query = Self.loggedQuery(
            reported == nil ? pageQuery : nil, items: query, secret: site?.secretNames ?? [], token: { value in hasher.map { token(for: value, with: $0) } })
        record.takeParameters(
            from: Self.formItems(query, keeping: tracked, site?.secretNames ?? []), tracked: tracked, secret: site?.secretNames ?? [],
            token: hasher.map { hasher in { token(for: $0, with: hasher) } })
        return record
    }

    /// The items of a query split as sent that the log keeps (`utm_*`, tracked and secret names),
    /// decoded as a browser form encodes them (`+` a space); only their values are decoded.
    static func formItems(_ query: [(name: String, value: String)], keeping tracked: Set<String>, _ secret: Set<String>) -> [(name: String, value: String)] {
        var kept: [(name: String, value: String)] = []
        for item in query {
            let name = PercentCoding.decode(item.name, plusAsSpace: true).text
            guard name.hasPrefix("utm_") || tracked.contains(name) || secret.contains(name) else { continue }
            kept.append((name, PercentCoding.decode(item.value, plusAsSpace: true).text))
        }
        return kept
    }

    /// The query as the log keeps it (`LogRecord.query`): `raw` as sent when no item is secret (the
    /// common case costs nothing but keeping the string), else rebuilt from `items` with each secret
    /// value replaced by its token (`-` without a hasher, as in the path), hashed form-decoded exactly
    /// as the `secret` column and `params` hash it. A reported link has no raw query (`raw` is nil):
    /// it is rebuilt from its items, an item sent without `=` then written with one (AASA reads both as
    /// an empty value). `nil` when there is no query at all.
    static func loggedQuery(
        _ raw: String?, items: [(name: String, value: String)], secret: Set<String>, token: (String) -> String?
    ) -> String? {
        if let raw, secret.isEmpty { return raw }
        if items.isEmpty { return raw }
        var hasSecret = false
        if !secret.isEmpty {
            for item in items where secret.contains(Self.formName(item.name)) {
                hasSecret = true
                break
            }
        }
        if let raw, !hasSecret { return raw }
        var rebuilt = ""
        for item in items {
            if !rebuilt.isEmpty { rebuilt += "&" }
            rebuilt += item.name
            rebuilt += "="
            if hasSecret, secret.contains(Self.formName(item.name)) {
                rebuilt += token(PercentCoding.decode(item.value, plusAsSpace: true).text).map { PercentCoding.encode($0) } ?? "-"
            } else {
                rebuilt += item.value
            }
        }
        return rebuilt
    }

    /// A query item's name as a form decodes it, decoded only when it holds an escape or a `+`.
    private static func formName(_ name: String) -> String {
        name.utf8.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") } ? PercentCoding.decode(name, plusAsSpace: true).text : name
    }

    /// The first value of `name` in a query split as sent, form-decoded; `nil` when absent.
    private static func formValue(of name: String, in query: [(name: String, value: String)]) -> String? {
        query.first { PercentCoding.decode($0.name, plusAsSpace: true).text == name }.map { PercentCoding.decode($0.value, plusAsSpace: true).text }
    }
}
