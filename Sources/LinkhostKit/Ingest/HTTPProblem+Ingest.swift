import HTTPServing
import OrderedJSON

/// Why an app-open or page-event report was refused; nothing is logged for a refused report.
extension HTTPProblem {
    static func notFound(_ detail: String) -> HTTPProblem { HTTPProblem(status: 404, code: "not_found", detail: detail) }
    static func methodNotAllowed(_ path: String) -> HTTPProblem {
        HTTPProblem(status: 405, code: "method_not_allowed", detail: "\(path) takes POST only", headers: ["Allow": "POST"])
    }
    static let unauthorized = HTTPProblem(
        status: 401, code: "unauthorized", detail: "send the site's ingest key as \"Authorization: Bearer <key>\"; the key given is missing or wrong")
    static func rateLimited(_ seconds: Int) -> HTTPProblem {
        HTTPProblem(
            status: 429, code: "rate_limited", detail: "too many reports from this network; retry after \(seconds) s", headers: ["Retry-After": "\(seconds)"])
    }
    static func unsupportedMediaType(_ found: String?, accepted: [String]) -> HTTPProblem {
        HTTPProblem(
            status: 415, code: "unsupported_media_type",
            detail: "Content-Type is \(found.map { "\"\($0)\"" } ?? "missing"); send \(accepted.map { "\"\($0)\"" }.joined(separator: " or "))")
    }
    static func malformedJSON(_ error: JSONSyntaxError) -> HTTPProblem {
        HTTPProblem(status: 400, code: "malformed_json", detail: "the body is not valid JSON at byte \(error.offset): \(error.message)")
    }
    static func invalidField(_ detail: String) -> HTTPProblem { HTTPProblem(status: 400, code: "invalid_field", detail: detail) }
    static func unprocessableLink(_ detail: String) -> HTTPProblem { HTTPProblem(status: 422, code: "unknown_link", detail: detail) }
    static func unknownEvent(_ detail: String) -> HTTPProblem { HTTPProblem(status: 422, code: "unknown_event", detail: detail) }
    static let httpsRequired = HTTPProblem(
        status: 403, code: "https_required", detail: "send reports over HTTPS; this server takes them on its HTTPS port only")

    /// The JSON answer of a report endpoint.
    func response(commonHeaders: CommonHeaders) -> HTTPResponse {
        response(headers: IngestResponses.jsonHeaders(commonHeaders))
    }
}

/// Headers shared by the ingest endpoints' answers.
enum IngestResponses {
    static func jsonHeaders(_ commonHeaders: CommonHeaders) -> HTTPHeaders {
        commonHeaders.applied(to: ["Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
    }
}
