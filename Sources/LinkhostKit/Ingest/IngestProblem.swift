import HTTPServing
import OrderedJSON

/// Why an app-open or page-event report was refused: the status, a short machine-readable code and
/// a sentence for the developer. Sent as `{"error": code, "detail": detail}`; nothing is logged.
struct IngestProblem: Error, Sendable, Equatable {
    let status: Int
    let code: String
    let detail: String
    /// Seconds to wait, for 429.
    var retryAfterSeconds: Int?

    static func notFound(_ detail: String) -> IngestProblem { IngestProblem(status: 404, code: "not_found", detail: detail) }
    static func methodNotAllowed(_ path: String) -> IngestProblem {
        IngestProblem(status: 405, code: "method_not_allowed", detail: "\(path) takes POST only")
    }
    static let unauthorized = IngestProblem(
        status: 401, code: "unauthorized", detail: "send the site's ingest key as \"Authorization: Bearer <key>\"; the key given is missing or wrong")
    static func rateLimited(_ seconds: Int) -> IngestProblem {
        IngestProblem(
            status: 429, code: "rate_limited", detail: "too many reports from this network; retry after \(seconds) s", retryAfterSeconds: seconds)
    }
    static func unsupportedMediaType(_ found: String?, accepted: [String]) -> IngestProblem {
        IngestProblem(
            status: 415, code: "unsupported_media_type",
            detail: "Content-Type is \(found.map { "\"\($0)\"" } ?? "missing"); send \(accepted.map { "\"\($0)\"" }.joined(separator: " or "))")
    }
    static func malformedJSON(_ error: JSONSyntaxError) -> IngestProblem {
        IngestProblem(status: 400, code: "malformed_json", detail: "the body is not valid JSON at byte \(error.offset): \(error.message)")
    }
    static func invalidField(_ detail: String) -> IngestProblem { IngestProblem(status: 400, code: "invalid_field", detail: detail) }
    static func unprocessableLink(_ detail: String) -> IngestProblem { IngestProblem(status: 422, code: "unknown_link", detail: detail) }
    static func unknownEvent(_ detail: String) -> IngestProblem { IngestProblem(status: 422, code: "unknown_event", detail: detail) }

    /// The JSON answer.
    func response(commonHeaders: CommonHeaders) -> HTTPResponse {
        var headers = IngestResponses.jsonHeaders(commonHeaders)
        if let retryAfterSeconds { headers.set("Retry-After", "\(retryAfterSeconds)") }
        if status == 405 { headers.set("Allow", "POST") }
        let body = JSONValue.object([JSONMember("error", .string(code)), JSONMember("detail", .string(detail))])
        return HTTPResponse(status: status, headers: headers, body: body.serialized(.compact) + [0x0A])
    }
}

/// Headers shared by the ingest endpoints' answers.
enum IngestResponses {
    static func jsonHeaders(_ commonHeaders: CommonHeaders) -> HTTPHeaders {
        commonHeaders.applied(to: ["Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
    }
}
