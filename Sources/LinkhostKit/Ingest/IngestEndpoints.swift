import Foundation
import HTTPServing
import LinkLog
import OrderedJSON

/// `POST /v1/opens` (the app reports the link it was opened with; needs the site's ingest key) and
/// `POST /v1/events` (a fallback page reports a button click; same origin, no key), on every host
/// of every site. Both route the reported link as the fallback page would, answer in JSON, and hand
/// the logger an annotation that describes the reported link; refused reports are never logged.
struct IngestEndpoints: Sendable {
    static let opensPath = "/v1/opens"
    static let eventsPath = "/v1/events"
    static let paths: Set<String> = [opensPath, eventsPath]

    let keys: IngestKeys
    let limiter: TokenBucketLimiter
    let commonHeaders: CommonHeaders

    func respond(to request: HTTPRequest, site: SiteConfiguration) -> AnnotatedResponse<HitAnnotation> {
        let outcome: Result<AnnotatedResponse<HitAnnotation>, IngestProblem> =
            request.path == Self.opensPath ? open(request, site: site) : event(request, site: site)
        switch outcome {
        case .success(let answer): return answer
        case .failure(let problem):
            return AnnotatedResponse(
                problem.response(commonHeaders: commonHeaders),
                annotation: HitAnnotation(kind: .rejected, siteID: site.id, logged: false, rejection: problem.code))
        }
    }

    private func open(_ request: HTTPRequest, site: SiteConfiguration) -> Result<AnnotatedResponse<HitAnnotation>, IngestProblem> {
        guard keys.isEnabled(forSite: site.id) else {
            return .failure(.notFound("app opens are off for site \(site.id): the server has no ingest key for it (\(IngestKeys.variable(forSite: site.id)))"))
        }
        guard request.method == "POST" else { return .failure(.methodNotAllowed(Self.opensPath)) }
        guard keys.accepts(request.headers["Authorization"], forSite: site.id) else { return .failure(.unauthorized) }
        if case .failure(let problem) = checkRate(request, site: site) { return .failure(problem) }
        if let problem = Self.checkMediaType(request, accepted: ["application/json"]) { return .failure(problem) }
        let now = LogRecord.currentTimeMilliseconds()
        let report: OpenReport
        switch OpenReport.parse(request.body, now: now) {
        case .success(let parsed): report = parsed
        case .failure(let problem): return .failure(problem)
        }
        let link: ReportedLink
        switch ReportedLink.resolve(url: report.url, site: site) {
        case .success(let resolved): link = resolved
        case .failure(let problem): return .failure(problem)
        }
        let match = link.match
        var parameters: [JSONMember] = []
        for parameter in match.rule.parameters {
            if let value = match.values[parameter.name] { parameters.append(JSONMember(parameter.name, .string(value))) }
        }
        for item in match.passThrough { parameters.append(JSONMember(item.name, .string(item.value))) }
        let body = JSONValue.object([
            JSONMember("site", .string(site.id)),
            JSONMember("rule", .string(match.rule.name)),
            JSONMember("appURL", .string(match.appURL)),
            JSONMember("parameters", .object(parameters)),
        ])
        let response = HTTPResponse(status: 200, headers: IngestResponses.jsonHeaders(commonHeaders), body: body.serialized(.compact) + [0x0A])
        let annotation = HitAnnotation(
            kind: .appOpen, siteID: site.id, rule: match.rule.name, pathCaptures: match.captures,
            reported: ReportedTarget(host: link.host, rawPath: link.rawPath, rawQuery: link.rawQuery, occurredAt: report.openedAt),
            event: report.source?.rawValue)
        return .success(AnnotatedResponse(response, annotation: annotation))
    }

    private func event(_ request: HTTPRequest, site: SiteConfiguration) -> Result<AnnotatedResponse<HitAnnotation>, IngestProblem> {
        guard request.method == "POST" else { return .failure(.methodNotAllowed(Self.eventsPath)) }
        if case .failure(let problem) = checkRate(request, site: site) { return .failure(problem) }
        // sendBeacon sends a string body as text/plain, which needs no CORS preflight; JSON is taken too.
        if let problem = Self.checkMediaType(request, accepted: ["text/plain", "application/json"]) { return .failure(problem) }
        let report: PageEventReport
        switch PageEventReport.parse(request.body) {
        case .success(let parsed): report = parsed
        case .failure(let problem): return .failure(problem)
        }
        let host = request.hostName.flatMap { site.lists(host: $0) ? $0 : nil } ?? site.primaryHost
        let link: ReportedLink
        switch ReportedLink.resolve(target: report.path, host: host, site: site) {
        case .success(let resolved): link = resolved
        case .failure(let problem): return .failure(problem)
        }
        var headers = commonHeaders.applied(to: ["Cache-Control": "no-store"])
        headers.set("X-Content-Type-Options", "nosniff")
        let annotation = HitAnnotation(
            kind: .event, siteID: site.id, rule: link.match.rule.name, pathCaptures: link.match.captures,
            reported: ReportedTarget(host: link.host, rawPath: link.rawPath, rawQuery: link.rawQuery, occurredAt: nil),
            event: report.event.rawValue)
        return .success(AnnotatedResponse(HTTPResponse(status: 204, headers: headers), annotation: annotation))
    }

    /// One token per report from the client's network (the prefix the log would store).
    private func checkRate(_ request: HTTPRequest, site: SiteConfiguration) -> Result<Void, IngestProblem> {
        let address = request.clientAddress.map { ClientAddressPolicy.truncate($0) ?? $0 } ?? "-"
        switch limiter.take(site.id + " " + address, limit: site.ingestRateLimit) {
        case .allowed: return .success(())
        case .limited(let seconds): return .failure(.rateLimited(seconds))
        }
    }

    /// The media type without parameters must be one of `accepted`.
    private static func checkMediaType(_ request: HTTPRequest, accepted: [String]) -> IngestProblem? {
        let given = request.headers["Content-Type"]
        let type = given.map { $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type, accepted.contains(type) else { return .unsupportedMediaType(given, accepted: accepted) }
        return nil
    }
}
