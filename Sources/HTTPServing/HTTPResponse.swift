/// What a responder sends back: a status, header fields and a body — or a prepared response that was
/// built once and is queued as-is for every request that wants the same bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Anything the responder wants handed to the server's completion observer with this exchange
    /// (for example the facts a request log needs). The server never looks inside.
    public var annotation: (any Sendable)?
    /// The prebuilt response to queue instead of `status`/`headers`/`body`, which then mirror it.
    public let prepared: PreparedResponse?

    /// A response built for this request.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], annotation: (any Sendable)? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.annotation = annotation
        self.prepared = nil
    }

    /// A response of UTF-8 text with the given content type.
    public init(status: Int, contentType: String, text: String, headers: HTTPHeaders = HTTPHeaders(), annotation: (any Sendable)? = nil) {
        var allHeaders = headers
        allHeaders.set("Content-Type", contentType)
        self.init(status: status, headers: allHeaders, body: Array(text.utf8), annotation: annotation)
    }

    /// A prebuilt response, queued without copying or rebuilding anything.
    public init(_ prepared: PreparedResponse, annotation: (any Sendable)? = nil) {
        self.status = prepared.status
        self.headers = prepared.headers
        self.body = prepared.body
        self.annotation = annotation
        self.prepared = prepared
    }

    /// The body as text (for tests and logs).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
