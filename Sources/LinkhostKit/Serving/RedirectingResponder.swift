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

    func respond(to request: HTTPRequest) -> AnnotatedResponse<ServedRequest> {
        let endpoint = PublicEndpoint(path: request.path)
        // Reports carry the ingest key and invite codes: over HTTPS only, never redirected (a
        // redirected POST would already have sent them in clear).
        if endpoint.isReport {
            let problem = HTTPProblem.httpsRequired
            var served = ServedRequest(endpoint: endpoint, kind: .rejected)
            served.logged = false
            served.rejection = problem.code
            return AnnotatedResponse(problem.response(commonHeaders: inner.commonHeaders), annotation: served)
        }
        guard request.method == "GET" || request.method == "HEAD", endpoint == .page || endpoint == .staticFile,
            let site = inner.directory.site(forHost: request.hostName)
        else {
            return inner.respond(to: request, endpoint: endpoint)
        }
        let configuration = site.configuration
        let host = request.hostName.flatMap { configuration.lists(host: $0) ? $0 : nil } ?? configuration.primaryHost
        let authority = httpsPort == 443 ? host : "\(host):\(httpsPort)"
        let location = "https://\(authority)\(PercentCoding.encode(request.target.hasPrefix("/") ? request.target : "/", .pathAndQuery))"
        var headers: HTTPHeaders = ["Location": location, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache"]
        inner.commonHeaders.apply(to: &headers)
        return AnnotatedResponse(
            HTTPResponse(status: 308, headers: headers, body: Array("Moved to \(location)\n".utf8)),
            annotation: ServedRequest(endpoint: endpoint, kind: .redirect, site: site))
    }
}
