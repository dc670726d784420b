import OrderedJSON

/// A refusal a client program can act on: a status, a short machine-readable code and a sentence
/// for the developer, sent as `{"error": code, "detail": detail}`. The one shape every JSON answer
/// of refusal takes: the report endpoints, the admin API, and the server's own 413 for a JSON body.
public struct HTTPProblem: Error, Sendable, Equatable {
    public let status: Int
    public let code: String
    public let detail: String
    /// Fields the refusal needs besides the JSON ones (`Retry-After`, `Allow`, `WWW-Authenticate`).
    public var headers: HTTPHeaders

    public init(status: Int, code: String, detail: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
    }

    /// A body over the server's limit (`HTTPServerConfiguration.maximumBodySize`).
    public static func payloadTooLarge(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 413, code: "payload_too_large", detail: "request bodies are limited to \(limit) bytes")
    }

    /// The JSON answer, with `base` (the endpoint's usual fields) under the problem's own.
    public func response(headers base: HTTPHeaders) -> HTTPResponse {
        var all = base
        if !all.contains("Content-Type") { all.add("Content-Type", "application/json") }
        for field in headers { all.set(field.name, field.value) }
        let body = JSONValue.object([JSONMember("error", .string(code)), JSONMember("detail", .string(detail))])
        return HTTPResponse(status: status, headers: all, body: body.serialized(.compact) + [0x0A])
    }
}
