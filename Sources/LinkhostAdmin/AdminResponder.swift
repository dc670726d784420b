import Foundation
import HTTPServing
import LinkhostKit
import OrderedJSON
import PercentCoding

/// Routes the admin listener: the login form and logout, the dashboard, its stylesheet, the log
/// API with its OpenAPI document, the metrics, and the detailed health report. Everything but the
/// login form, the stylesheet and the icon needs a bearer token or a session cookie; without one
/// every path — existing or not, so probing learns nothing — answers 401 (JSON under `/api/`,
/// `/metrics` and `/healthz`, the login page elsewhere).
///
/// Decision: `/healthz` here needs the token like the rest. It names the config file, the log's
/// database and journal and a refused config's problems; the listener has no unauthenticated
/// path but the sign-in page's own files, and liveness without a token is the public `/healthz`.
struct AdminResponder: HTTPResponder {
    let authenticator: AdminAuthenticator
    let pages: AdminPages
    let api: LogAPI
    let dashboard: Dashboard
    let metrics: MetricsPage
    let openAPIDocument: [UInt8]
    /// The server's detailed health report, read at each request.
    let healthDetails: @Sendable () -> JSONValue
    /// Asks the certificate manager to renew every ACME certificate now; `false` without ACME.
    var renewCertificates: @Sendable () -> Bool = { false }

    /// `POST` here renews every ACME certificate now (`linkhost certificates renew`).
    static let renewPath = "/api/v1/certificates/renew"

    func respond(to request: HTTPRequest) -> AnnotatedResponse<Void> {
        AnnotatedResponse(route(request), annotation: ())
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        let isRead = request.method == "GET" || request.method == "HEAD"
        switch path {
        case "/admin.css" where isRead:
            return HTTPResponse(status: 200, headers: AdminHeaders.with("text/css; charset=utf-8"), body: pages.stylesheet)
        case "/favicon.ico" where isRead:
            guard !pages.icon.isEmpty else { break }
            return HTTPResponse(status: 200, headers: AdminHeaders.with("image/png"), body: pages.icon)
        case "/login":
            if request.method == "POST" { return logIn(request) }
            if isRead {
                guard authenticator.isAuthenticated(request) else { return loginPage(request, status: 200) }
                var headers = AdminHeaders.html
                headers.set("Location", "/")
                return HTTPResponse(status: 303, headers: headers)
            }
            return methodNotAllowed("GET, HEAD, POST")
        case "/logout":
            guard request.method == "POST" else { return methodNotAllowed("POST") }
            authenticator.logOut(request)
            var headers = AdminHeaders.html
            headers.set("Location", "/login")
            headers.set("Set-Cookie", authenticator.cookie.clearCookie)
            return HTTPResponse(status: 303, headers: headers)
        default:
            break
        }
        let machine = path.hasPrefix("/api/") || path == "/metrics" || path == "/healthz"
        guard authenticator.isAuthenticated(request) else {
            authenticator.countRefusal()
            if machine { return HTTPProblem.adminUnauthorized.response() }
            let language = Dashboard.language(request)
            return loginPage(request, status: 401, prompt: pages.text("login_needed", language))
        }
        if path == Self.renewPath { return renew(request) }
        guard isRead else { return machine ? HTTPProblem.readOnly(path).response() : methodNotAllowed("GET, HEAD") }
        switch path {
        case "/": return dashboard.response(request)
        case "/metrics": return metrics.response()
        case "/healthz": return HTTPResponse(status: 200, headers: AdminHeaders.json, body: healthDetails().serialized(.pretty(indent: 2)) + [0x0A])
        case "/api/v1/hits": return api.hits(request)
        case "/api/v1/stats": return api.stats(request)
        case "/api/v1/funnel": return api.funnel(request)
        case "/api/v1/openapi.json": return HTTPResponse(status: 200, headers: AdminHeaders.json, body: openAPIDocument)
        default:
            if machine { return HTTPProblem.pathNotFound("no such path: \(path); see /api/v1/openapi.json").response() }
            return HTTPResponse(status: 404, headers: AdminHeaders.with("text/plain; charset=utf-8"), body: Array("Not Found\n".utf8))
        }
    }

    /// 202 once the renewal is asked for; the bearer token is required (not a session cookie).
    private func renew(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "POST" else {
            return HTTPProblem(status: 405, code: "method_not_allowed", detail: "\(Self.renewPath) takes POST", headers: ["Allow": "POST"]).response()
        }
        guard authenticator.carriesToken(request) else {
            authenticator.countRefusal()
            return HTTPProblem.adminUnauthorized.response()
        }
        guard renewCertificates() else {
            return HTTPProblem(status: 409, code: "no_acme", detail: "server.tls.acme is not configured: no certificate is renewed by this server").response()
        }
        return HTTPResponse(status: 202, headers: AdminHeaders.json, body: Array("{\"renewing\": true}\n".utf8))
    }

    private func logIn(_ request: HTTPRequest) -> HTTPResponse {
        let language = Dashboard.language(request)
        let form = QueryString(String(decoding: request.body, as: UTF8.self), decoding: .form)
        let presented = form.first { $0.name == "token" }?.value ?? ""
        switch authenticator.logIn(presented: presented, clientAddress: request.clientAddress) {
        case .accepted(let setCookie):
            var headers = AdminHeaders.html
            headers.set("Location", "/")
            headers.set("Set-Cookie", setCookie)
            return HTTPResponse(status: 303, headers: headers)
        case .refused:
            authenticator.countRefusal()
            return loginPage(request, status: 401, error: pages.text("login_wrong", language))
        case .limited(let seconds):
            authenticator.countRefusal()
            var response = loginPage(request, status: 429, error: pages.text("login_limited", language, ["seconds": "\(seconds)"]))
            response.headers.set("Retry-After", "\(seconds)")
            return response
        }
    }

    private func loginPage(_ request: HTTPRequest, status: Int, prompt: String? = nil, error: String? = nil) -> HTTPResponse {
        let page = pages.loginPage(language: Dashboard.language(request), prompt: prompt, error: error)
        return HTTPResponse(status: status, headers: AdminHeaders.html, body: Array(page.utf8))
    }

    private func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        var headers = AdminHeaders.with("text/plain; charset=utf-8")
        headers.set("Allow", allowed)
        return HTTPResponse(status: 405, headers: headers, body: Array("Method Not Allowed\n".utf8))
    }
}
