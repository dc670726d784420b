import HTTPServing

/// The admin API's refusals, in the same `{"error", "detail"}` shape as the report endpoints'.
extension HTTPProblem {
    static func badParameter(_ name: String, _ detail: String) -> HTTPProblem {
        HTTPProblem(status: 400, code: "bad_parameter", detail: "\(name): \(detail)")
    }
    static let adminUnauthorized = HTTPProblem(
        status: 401, code: "unauthorized", detail: "send the admin token as \"Authorization: Bearer <token>\"; the token given is missing or wrong",
        headers: ["WWW-Authenticate": "Bearer realm=\"linkhost-admin\""])
    static func pathNotFound(_ detail: String) -> HTTPProblem { HTTPProblem(status: 404, code: "not_found", detail: detail) }
    static func readOnly(_ path: String) -> HTTPProblem {
        HTTPProblem(status: 405, code: "method_not_allowed", detail: "\(path) takes GET and HEAD only", headers: ["Allow": "GET, HEAD"])
    }
    static func notAcceptable(_ detail: String) -> HTTPProblem { HTTPProblem(status: 406, code: "not_acceptable", detail: detail) }
    static func logUnavailable(_ detail: String) -> HTTPProblem { HTTPProblem(status: 503, code: "log_unavailable", detail: detail) }
    static let internalError = HTTPProblem(status: 500, code: "internal", detail: "the log could not be read; the server's log says why")

    /// The admin API's JSON answer.
    func response() -> HTTPResponse { response(headers: AdminHeaders.json) }
}
