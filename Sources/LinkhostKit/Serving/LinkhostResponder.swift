import HTTPServing
import LinkLog
import OrderedJSON
import PercentCoding

/// Routes every request: the endpoint its path names, method check, health, site by Host, then the
/// site's own paths. One is built per serving set (see `ServingSet`); it never changes once built.
/// A class, so the request path refers to it rather than copying its dozen references (a retain
/// and a release each, every request).
final class LinkhostResponder: HTTPResponder {
    let directory: SiteDirectory<HostedSite>
    let health: HealthReporter
    let methodNotAllowed: PreparedResponse
    let unknownHost: PreparedResponse
    let noAssetLinks: PreparedResponse
    let staticFiles: StaticFiles
    let commonHeaders: CommonHeaders
    let ingest: IngestEndpoints
    /// Classifies User-Agents for the page variants; shared by every serving set of a server.
    let clientClasses: ClientClassCache

    init(
        sites: [HostedSite], unknownHostPolicy: UnknownHostPolicy, health: HealthReporter, staticFiles: StaticFiles, commonHeaders: CommonHeaders,
        ingestKeys: IngestKeys = .none, limiter: TokenBucketLimiter = TokenBucketLimiter(), clientClasses: ClientClassCache = ClientClassCache()
    ) throws(HTTPServerError) {
        ingest = IngestEndpoints(keys: ingestKeys, limiter: limiter, commonHeaders: commonHeaders)
        self.clientClasses = clientClasses
        self.staticFiles = staticFiles
        self.commonHeaders = commonHeaders
        var entries: [(host: String, site: HostedSite)] = []
        for site in sites {
            for host in site.configuration.hosts { entries.append((host, site)) }
        }
        let fallback: HostedSite?
        switch unknownHostPolicy {
        case .notFound: fallback = nil
        case .site(let id): fallback = sites.first { $0.configuration.id == id }
        }
        directory = SiteDirectory(entries: entries, fallback: fallback)
        self.health = health
        methodNotAllowed = try PreparedResponse(
            status: 405,
            headers: commonHeaders.applied(to: ["Allow": "GET, HEAD", "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff"]),
            body: Array("Method Not Allowed: this server answers GET and HEAD only.\n".utf8)
        )
        // The Host is deliberately not echoed back: nothing from the request reaches this page.
        unknownHost = try PreparedResponse(
            status: 404,
            headers: commonHeaders.applied(to: ["Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"]),
            body: Array("Not Found: this server has no site for the requested host.\n".utf8)
        )
        // A plain answer rather than the site's HTML 404: the only readers of this path are
        // Android's verifier and people checking it with curl.
        noAssetLinks = try PreparedResponse(
            status: 404,
            headers: commonHeaders.applied(to: ["Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"]),
            body: Array("Not Found: this site has no Android app (app.android in the config), so it has no assetlinks.json.\n".utf8)
        )
    }

    func respond(to request: HTTPRequest) -> AnnotatedResponse<ServedRequest> {
        respond(to: request, endpoint: PublicEndpoint(path: request.path))
    }

    /// An app-open report refused from its head (no or a wrong key, opens off) is answered before
    /// its body is read: an unauthenticated client cannot make the server read, or wait for, a body.
    func refusal(beforeBodyOf request: HTTPRequest) -> HTTPResponse? {
        guard PublicEndpoint(path: request.path) == .opens, let site = directory.site(forHost: request.hostName),
            let problem = ingest.openRefusedByHead(request, site: site.configuration)
        else { return nil }
        return problem.response(commonHeaders: commonHeaders)
    }

    /// Answers `request`, whose path names `endpoint` (decided once by the caller).
    func respond(to request: HTTPRequest, endpoint: PublicEndpoint) -> AnnotatedResponse<ServedRequest> {
        if endpoint.isReport {
            if let site = directory.site(forHost: request.hostName) { return ingest.respond(to: request, endpoint: endpoint, site: site) }
            // An app or a page sends reports and reads the JSON problem: so for a host no site
            // serves too, never this server's plain pages (RFC 9457 problem details).
            return ingest.refuseUnknownHost(request, endpoint: endpoint)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return AnnotatedResponse(HTTPResponse(methodNotAllowed), annotation: ServedRequest(endpoint: endpoint, kind: .methodNotAllowed))
        }
        if endpoint == .health {
            var response = health.publicResponse()
            commonHeaders.apply(to: &response.headers)
            return AnnotatedResponse(response, annotation: ServedRequest(endpoint: endpoint, kind: .health))
        }
        guard let site = directory.site(forHost: request.hostName) else {
            return AnnotatedResponse(HTTPResponse(unknownHost), annotation: ServedRequest(endpoint: endpoint, kind: .unknownHost))
        }
        switch endpoint {
        case .aasa:
            let response = site.aasa.response(ifNoneMatch: request.headers["If-None-Match"])
            return AnnotatedResponse(HTTPResponse(response), annotation: ServedRequest(endpoint: endpoint, kind: .aasa, site: site))
        case .assetLinks:
            // Logged as `assetlinks` whatever the answer, so a verifier asking a site without an
            // Android app shows up in the statistics too.
            let response = site.assetLinks?.response(ifNoneMatch: request.headers["If-None-Match"]) ?? noAssetLinks
            return AnnotatedResponse(HTTPResponse(response), annotation: ServedRequest(endpoint: endpoint, kind: .assetLinks, site: site))
        case .staticFile:
            let path = request.path == "/robots.txt" ? "/static/robots.txt" : request.path
            if let file = staticFiles.response(for: path, ifNoneMatch: request.headers["If-None-Match"]) {
                return AnnotatedResponse(HTTPResponse(file), annotation: ServedRequest(endpoint: endpoint, kind: .staticFile, site: site))
            }
            return site.pages.response(for: request, served: ServedRequest(endpoint: endpoint, kind: .notFound, site: site), classes: clientClasses)
        case .page where request.path == "/" && site.configuration.root != nil:
            return rootRedirect(request, site: site)
        case .page, .health, .opens, .events:
            return site.pages.response(for: request, served: ServedRequest(endpoint: endpoint, kind: .notFound, site: site), classes: clientClasses)
        }
    }

    /// `/` on a site with `root`: a 302 to it, the request's query carried along (a campaign's UTM
    /// values reach the web site). 302 and `no-cache`, so a changed `root` applies at the next visit.
    private func rootRedirect(_ request: HTTPRequest, site: HostedSite) -> AnnotatedResponse<ServedRequest> {
        var location = site.configuration.root ?? "/"
        if let query = request.rawQuery, !query.isEmpty {
            location += (location.contains("?") ? "&" : "?") + PercentCoding.encode(query, .pathAndQuery)
        }
        var headers: HTTPHeaders = ["Location": location, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache"]
        commonHeaders.apply(to: &headers)
        return AnnotatedResponse(
            HTTPResponse(status: 302, headers: headers, body: Array("Found: \(location)\n".utf8)),
            annotation: ServedRequest(endpoint: .page, kind: .redirect, site: site))
    }
}
