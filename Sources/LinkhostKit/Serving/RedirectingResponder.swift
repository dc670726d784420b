import HTTPServing
import PercentCoding

/// The plain-HTTP listener when HTTPS is on: pages move to HTTPS with a 308, while the AASA file,
/// assetlinks.json and health are answered here as they are — Apple's checklist forbids redirecting
/// the AASA file, and Android's verifier follows no redirect for assetlinks.json.
///
/// The redirect's host is the request's only when a site lists it; otherwise the site's primary
/// host, so a forged Host header cannot turn this into an open redirect.
struct RedirectingResponder: HTTPResponder {
    let inner: LinkhostResponder
    /// The HTTPS port clients reach; left out of URLs when it is 443.
    let httpsPort: Int

    func respond(to request: HTTPRequest) -> AnnotatedResponse<HitAnnotation> {
        // Reports carry the ingest key and invite codes: over HTTPS only, never redirected (a
        // redirected POST would already have sent them in clear).
        if IngestEndpoints.paths.contains(request.path) {
            let problem = IngestProblem(status: 403, code: "https_required", detail: "send reports over HTTPS; this server takes them on its HTTPS port only")
            return AnnotatedResponse(
                problem.response(commonHeaders: inner.commonHeaders), annotation: HitAnnotation(kind: .rejected, logged: false, rejection: problem.code))
        }
        guard request.method == "GET" || request.method == "HEAD", request.path != "/healthz",
            !LinkhostResponder.aasaPaths.contains(request.path), request.path != LinkhostResponder.assetLinksPath,
            let site = inner.directory.site(forHost: request.hostName)
        else {
            return inner.respond(to: request)
        }
        let configuration = site.configuration
        let host = request.hostName.flatMap { configuration.lists(host: $0) ? $0 : nil } ?? configuration.primaryHost
        let authority = httpsPort == 443 ? host : "\(host):\(httpsPort)"
        let location = "https://\(authority)\(PercentCoding.encode(request.target.hasPrefix("/") ? request.target : "/", .pathAndQuery))"
        var headers: HTTPHeaders = ["Location": location, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache"]
        inner.commonHeaders.apply(to: &headers)
        return AnnotatedResponse(
            HTTPResponse(status: 308, headers: headers, body: Array("Moved to \(location)\n".utf8)),
            annotation: HitAnnotation(kind: .redirect, siteID: configuration.id))
    }
}
