import HTTPServing
import OrderedJSON

/// An API refusal: a status and `{"error": code, "detail": sentence}`, the same shape as the
/// ingest endpoints' answers.
struct APIProblem: Error, Sendable, Equatable {
    let status: Int
    let code: String
    let detail: String

    static func badParameter(_ name: String, _ detail: String) -> APIProblem {
        APIProblem(status: 400, code: "bad_parameter", detail: "\(name): \(detail)")
    }
    static let unauthorized = APIProblem(
        status: 401, code: "unauthorized", detail: "send the admin token as \"Authorization: Bearer <token>\"; the token given is missing or wrong")
    static func notFound(_ detail: String) -> APIProblem { APIProblem(status: 404, code: "not_found", detail: detail) }
    static func methodNotAllowed(_ path: String) -> APIProblem {
        APIProblem(status: 405, code: "method_not_allowed", detail: "\(path) takes GET and HEAD only")
    }
    static func notAcceptable(_ detail: String) -> APIProblem { APIProblem(status: 406, code: "not_acceptable", detail: detail) }
    static func logUnavailable(_ detail: String) -> APIProblem { APIProblem(status: 503, code: "log_unavailable", detail: detail) }

    func response() -> HTTPResponse {
        var headers = AdminHeaders.json
        if status == 401 { headers.set("WWW-Authenticate", "Bearer realm=\"linkhost-admin\"") }
        if status == 405 { headers.set("Allow", "GET, HEAD") }
        let body = JSONValue.object([JSONMember("error", .string(code)), JSONMember("detail", .string(detail))])
        return HTTPResponse(status: status, headers: headers, body: body.serialized(.compact) + [0x0A])
    }
}
