import ACME
import HTTPServing

/// ACME's HTTP-01 answers on the plain listener (RFC 8555 §8.3): `GET /.well-known/acme-challenge/<token>`
/// for a host a site lists is answered with the token's key authorization before any routing —
/// never redirected to HTTPS (the CA's first fetch is over port 80, and a redirect to a host whose
/// certificate is being ordered could fail) and never logged as a hit.
struct ACMEChallengeAnswer {
    let tokens: ACMEHTTP01Tokens

    /// The answer, or `nil` when the request is not a challenge fetch for a site's host.
    func respond(to request: HTTPRequest, responder: LinkhostResponder) -> AnnotatedResponse<ServedRequest>? {
        guard request.path.hasPrefix(ACMEHTTP01Tokens.pathPrefix), request.method == "GET" || request.method == "HEAD",
            let host = request.hostName, let site = responder.directory.site(forHost: host), site.configuration.lists(host: host)
        else { return nil }
        var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"]
        responder.commonHeaders.apply(to: &headers)
        var served = ServedRequest(endpoint: .staticFile, kind: .staticFile, site: site)
        served.logged = false
        guard let answer = tokens.keyAuthorization(forPath: request.path) else {
            served.kind = .notFound
            return AnnotatedResponse(HTTPResponse(status: 404, headers: headers, body: Array("No such ACME challenge token.\n".utf8)), annotation: served)
        }
        // RFC 8555 §8.3: the body is the key authorization; Content-Type is not checked.
        headers.set("Content-Type", "application/octet-stream")
        return AnnotatedResponse(HTTPResponse(status: 200, headers: headers, body: Array(answer.utf8)), annotation: served)
    }
}
