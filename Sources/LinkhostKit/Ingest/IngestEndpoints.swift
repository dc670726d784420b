import Foundation
import HTTPServing
import LinkLog
import OrderedJSON

/// `POST /v1/opens` (the app reports the link it was opened with; needs the site's ingest key) and
/// `POST /v1/events` (a fallback page reports a button click; same origin, no key), on every host
/// of every site. Both route the reported link as the fallback page would, answer in JSON, and hand
/// the logger the reported link as the request's facts; refused reports are never logged.
struct IngestEndpoints: Sendable {
    let keys: IngestKeys
    let limiter: TokenBucketLimiter
    let commonHeaders: CommonHeaders

    /// Answers a report to `endpoint` (`opens` or `events`) on one of `hosted`'s hosts.
    func respond(to request: HTTPRequest, endpoint: PublicEndpoint, site hosted: HostedSite) -> AnnotatedResponse<ServedRequest> {
        let site = hosted.configuration
        var served = ServedRequest(endpoint: endpoint, kind: .rejected, site: hosted)
        let outcome: Result<HTTPResponse, HTTPProblem> =
            endpoint == .opens ? open(request, site: site, served: &served) : event(request, site: site, served: &served)
        switch outcome {
        case .success(let response): return AnnotatedResponse(response, annotation: served)
        case .failure(let problem):
            served.kind = .rejected
            served.logged = false
            served.rejection = problem.code
            return AnnotatedResponse(problem.response(commonHeaders: commonHeaders), annotation: served)
        }
    }

    /// A report for a host no site serves: its JSON problem, a 405 for a method other than POST
    /// first (as for a known host), nothing logged. The host is not echoed back.
    func refuseUnknownHost(_ request: HTTPRequest, endpoint: PublicEndpoint) -> AnnotatedResponse<ServedRequest> {
        let path = endpoint == .opens ? PublicEndpoint.opensPath : PublicEndpoint.eventsPath
        let problem =
            request.method == "POST"
            ? HTTPProblem.notFound("this server has no site for the requested host, so it takes no reports for it") : .methodNotAllowed(path)
        var served = ServedRequest(endpoint: endpoint, kind: .unknownHost)
        served.logged = false
        served.rejection = problem.code
        return AnnotatedResponse(problem.response(commonHeaders: commonHeaders), annotation: served)
    }

    /// Why an app-open report is refused from its head alone (opens off, not POST, no or a wrong
    /// key), checked before its body is read and again when it is answered.
    func openRefusedByHead(_ request: HTTPRequest, site: SiteConfiguration) -> HTTPProblem? {
        guard keys.isEnabled(forSite: site.id) else {
            return .notFound("app opens are off for site \(site.id): the server has no ingest key for it (\(IngestKeys.variable(forSite: site.id)))")
        }
        guard request.method == "POST" else { return .methodNotAllowed(PublicEndpoint.opensPath) }
        guard keys.accepts(request.headers["Authorization"], forSite: site.id) else { return .unauthorized }
        return nil
    }

    private func open(_ request: HTTPRequest, site: SiteConfiguration, served: inout ServedRequest) -> Result<HTTPResponse, HTTPProblem> {
        if let problem = openRefusedByHead(request, site: site) { return .failure(problem) }
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
        link.describe(in: &served, kind: .appOpen, occurredAt: report.openedAt)
        served.event = report.source?.rawValue
        // Unknown, expired or malformed tokens are still accepted: the open is logged unpaired.
        served.viewToken = ViewToken.reported(field: report.view, inLink: link.viewTokens)
        return .success(HTTPResponse(status: 200, headers: IngestResponses.jsonHeaders(commonHeaders), body: body.serialized(.compact) + [0x0A]))
    }

    private func event(_ request: HTTPRequest, site: SiteConfiguration, served: inout ServedRequest) -> Result<HTTPResponse, HTTPProblem> {
        guard request.method == "POST" else { return .failure(.methodNotAllowed(PublicEndpoint.eventsPath)) }
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
        link.describe(in: &served, kind: .event, occurredAt: nil)
        served.event = report.event.rawValue
        return .success(HTTPResponse(status: 204, headers: headers))
    }

    /// One token per report from the client's network (the prefix the log would store).
    private func checkRate(_ request: HTTPRequest, site: SiteConfiguration) -> Result<Void, HTTPProblem> {
        let address = request.clientAddress.map { ClientAddressPolicy.truncate($0) ?? $0 } ?? "-"
        switch limiter.take(site.id + " " + address, limit: site.ingestRateLimit) {
        case .allowed: return .success(())
        case .limited(let seconds): return .failure(.rateLimited(seconds))
        }
    }

    /// The media type without parameters must be one of `accepted`.
    private static func checkMediaType(_ request: HTTPRequest, accepted: [String]) -> HTTPProblem? {
        let given = request.headers["Content-Type"]
        guard let given, accepted.contains(where: { mediaType(of: given, is: $0) }) else {
            return .unsupportedMediaType(given, accepted: accepted)
        }
        return nil
    }

    /// Whether the media type of a `Content-Type` value — before any `;` parameters, without the
    /// spaces and tabs around it (RFC 9110's optional whitespace) — is `expected` (lower-case
    /// ASCII), in any case. Over the bytes: Foundation's trimming and `lowercased()` cost more
    /// than the rest of an app open's parsing.
    private static func mediaType(of value: String, is expected: String) -> Bool {
        var value = value
        var expected = expected
        return value.withUTF8 { bytes in
            expected.withUTF8 { wanted in
                let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                var start = 0
                while start < end, isSpace(bytes[start]) { start += 1 }
                while end > start, isSpace(bytes[end - 1]) { end -= 1 }
                guard end - start == wanted.count else { return false }
                for offset in 0..<wanted.count {
                    let byte = bytes[start + offset]
                    if (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) != wanted[offset] { return false }
                }
                return true
            }
        }
    }
}
