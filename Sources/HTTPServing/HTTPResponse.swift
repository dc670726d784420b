/// What a responder sends back: a status, header fields and a body — or a prepared response that was
/// built once and is queued as-is for every request that wants the same bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The prebuilt response to queue instead of `status`/`headers`/`body`, which then mirror it.
    public let prepared: PreparedResponse?
    /// A body produced while it is sent (chunked), instead of `body`; thread-per-connection servers only.
    public let stream: HTTPBodyStream?

    /// A response built for this request.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.prepared = nil
        self.stream = nil
    }

    /// A response whose body is produced while it is sent (see `HTTPBodyStream`).
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), stream: HTTPBodyStream) {
        self.status = status
        self.headers = headers
        self.body = []
        self.prepared = nil
        self.stream = stream
    }

    /// A response of UTF-8 text with the given content type.
    public init(status: Int, contentType: String, text: String, headers: HTTPHeaders = HTTPHeaders()) {
        var allHeaders = headers
        allHeaders.set("Content-Type", contentType)
        self.init(status: status, headers: allHeaders, body: Array(text.utf8))
    }

    /// A prebuilt response, queued without copying or rebuilding anything.
    public init(_ prepared: PreparedResponse) {
        self.status = prepared.status
        self.headers = prepared.headers
        self.body = prepared.body
        self.prepared = prepared
        self.stream = nil
    }

    /// The body as text (for tests and logs).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
