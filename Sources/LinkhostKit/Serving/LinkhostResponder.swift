import HTTPServing
import OrderedJSON

/// Routes every request: method check, health, site by Host, then the site's own paths. One is
/// built per serving set (see `ServingSet`); it never changes once built.
struct LinkhostResponder: HTTPResponder {
    static let aasaPaths: Set<String> = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]
    /// Android reads only this path (no root fallback like the AASA's).
    static let assetLinksPath = "/.well-known/assetlinks.json"

    let directory: SiteDirectory<HostedSite>
    let health: HealthReporter
    /// `/healthz`'s `sites` section for these sites.
    let healthSites: JSONValue
    let methodNotAllowed: PreparedResponse
    let unknownHost: PreparedResponse
    let noAssetLinks: PreparedResponse
    let staticFiles: StaticFiles
    let commonHeaders: CommonHeaders
    let ingest: IngestEndpoints

    init(
        sites: [HostedSite], unknownHostPolicy: UnknownHostPolicy, health: HealthReporter, staticFiles: StaticFiles, commonHeaders: CommonHeaders,
        ingestKeys: IngestKeys = .none, limiter: TokenBucketLimiter = TokenBucketLimiter()
    ) throws(HTTPServerError) {
        ingest = IngestEndpoints(keys: ingestKeys, limiter: limiter, commonHeaders: commonHeaders)
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
        healthSites = HealthReporter.sitesSection(sites.map(\.configuration))
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

    func respond(to request: HTTPRequest) -> AnnotatedResponse<HitAnnotation> {
        // The prefix test keeps the page and AASA path free of a set lookup.
        if request.path.hasPrefix("/v1/"), IngestEndpoints.paths.contains(request.path), let site = directory.site(forHost: request.hostName) {
            return ingest.respond(to: request, site: site.configuration)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return AnnotatedResponse(HTTPResponse(methodNotAllowed), annotation: HitAnnotation(kind: .methodNotAllowed))
        }
        if request.path == "/healthz" {
            var response = health.response(sites: healthSites)
            commonHeaders.apply(to: &response.headers)
            return AnnotatedResponse(response, annotation: HitAnnotation(kind: .health))
        }
        guard let site = directory.site(forHost: request.hostName) else {
            return AnnotatedResponse(HTTPResponse(unknownHost), annotation: HitAnnotation(kind: .unknownHost))
        }
        let siteID = site.configuration.id
        if Self.aasaPaths.contains(request.path) {
            return AnnotatedResponse(
                HTTPResponse(site.aasa.response(ifNoneMatch: request.headers["If-None-Match"])), annotation: HitAnnotation(kind: .aasa, siteID: siteID))
        }
        if request.path == Self.assetLinksPath {
            // Logged as `assetlinks` whatever the answer, so a verifier asking a site without an
            // Android app shows up in the statistics too.
            let response = site.assetLinks?.response(ifNoneMatch: request.headers["If-None-Match"]) ?? noAssetLinks
            return AnnotatedResponse(HTTPResponse(response), annotation: HitAnnotation(kind: .assetLinks, siteID: siteID))
        }
        if request.path.hasPrefix("/static/") || request.path == "/robots.txt" {
            let path = request.path == "/robots.txt" ? "/static/robots.txt" : request.path
            if let file = staticFiles.response(for: path, ifNoneMatch: request.headers["If-None-Match"]) {
                return AnnotatedResponse(HTTPResponse(file), annotation: HitAnnotation(kind: .staticFile, siteID: siteID))
            }
        }
        return site.pages.response(for: request)
    }
}
