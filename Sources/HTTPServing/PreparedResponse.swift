internal import CMicroHTTPD

/// A response turned into a libmicrohttpd response object once, then queued on any number of
/// connections from any thread.
///
/// libmicrohttpd reference-counts response objects under a mutex and never changes one after its
/// headers are set, so sharing the handle across threads is safe; that is what makes the type
/// `Sendable` despite holding a C pointer. Use it for fixed content such as an AASA file or a 304.
public final class PreparedResponse: @unchecked Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: [UInt8]
    let handle: OpaquePointer

    /// Copies `body` into a new libmicrohttpd response carrying `headers`.
    /// Header names or values with CR, LF or NUL are refused rather than sent (response splitting).
    public convenience init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPServerError) {
        try self.init(status: status, headers: headers, body: body, handleBody: body)
    }

    /// Like `init(status:headers:body:)` for headers checked and turned into C strings once: a page
    /// made for every new link carries the same fixed headers, prepared when the site was set up.
    package convenience init(status: Int, checkedHeaders headers: CheckedHeaders, body: [UInt8]) throws(HTTPServerError) {
        try self.init(status: status, headers: headers.fields, body: body) { ResponseBuilder.makeHandle(body: body, headers: headers) }
    }

    /// Throws when a header field has characters not allowed in HTTP.
    package static func check(_ headers: HTTPHeaders) throws(HTTPServerError) {
        for field in headers where !HeaderFieldRules.isValid(name: field.name, value: field.value) {
            throw HTTPServerError.invalidResponse("header field \(field.name) has characters not allowed in HTTP")
        }
    }

    /// The 304 twin of this response, carrying `headers` (ETag, Cache-Control ...).
    ///
    /// RFC 9110 §8.6 allows a 304 to carry Content-Length only with the length the 200 would have
    /// had. libmicrohttpd always writes one for a 304, from the handle's body size, and never sends
    /// a 304's body: so the handle holds the 200's bytes, and `body` (what goes out) stays empty.
    public func notModified(headers: HTTPHeaders) throws(HTTPServerError) -> PreparedResponse {
        try PreparedResponse(status: 304, headers: headers, body: [], handleBody: body)
    }

    private convenience init(status: Int, headers: HTTPHeaders, body: [UInt8], handleBody: [UInt8]) throws(HTTPServerError) {
        try Self.check(headers)
        try self.init(status: status, headers: headers, body: body) { ResponseBuilder.makeHandle(body: handleBody, headers: headers) }
    }

    /// Checks the status, then builds the handle with `makeHandle`.
    private init(status: Int, headers: HTTPHeaders, body: [UInt8], makeHandle: () -> OpaquePointer?) throws(HTTPServerError) {
        guard (100...599).contains(status) else {
            throw HTTPServerError.invalidResponse("status \(status) is outside 100...599")
        }
        guard let handle = makeHandle() else {
            throw HTTPServerError.invalidResponse("libmicrohttpd could not build the response")
        }
        self.status = status
        self.headers = headers
        self.body = body
        self.handle = handle
    }

    deinit {
        MHD_destroy_response(handle)
    }
}
