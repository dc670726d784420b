internal import CMicroHTTPD
import Synchronization

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
    /// The bytes the handle holds (a 304's are its 200's), for the closing twin.
    private let handleBody: [UInt8]
    /// The same response with `Connection: close`, made the first time a stop's drain needs it:
    /// libmicrohttpd closes a connection after a response carrying that header, and a queued
    /// response must never change, so a draining server queues this twin instead. 0 until made.
    private let closingTwin = Atomic<UInt>(0)

    /// Copies `body` into a new libmicrohttpd response carrying `headers`.
    /// Header names or values with CR, LF or NUL are refused rather than sent (response splitting).
    public convenience init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPServerError) {
        try self.init(status: status, headers: headers, body: body, handleBody: body)
    }

    /// Like `init(status:headers:body:)` for headers checked and turned into C strings once: a page
    /// made for every new link carries the same fixed headers, prepared when the site was set up.
    package convenience init(status: Int, checkedHeaders headers: CheckedHeaders, body: [UInt8]) throws(HTTPServerError) {
        try self.init(status: status, headers: headers.fields, body: body, handleBody: body) { ResponseBuilder.makeHandle(body: body, headers: headers) }
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
        try self.init(status: status, headers: headers, body: body, handleBody: handleBody) {
            ResponseBuilder.makeHandle(body: handleBody, headers: headers)
        }
    }

    /// Checks the status, then builds the handle with `makeHandle`.
    private init(status: Int, headers: HTTPHeaders, body: [UInt8], handleBody: [UInt8], makeHandle: () -> OpaquePointer?) throws(HTTPServerError) {
        guard (100...599).contains(status) else {
            throw HTTPServerError.invalidResponse("status \(status) is outside 100...599")
        }
        guard let handle = makeHandle() else {
            throw HTTPServerError.invalidResponse("libmicrohttpd could not build the response")
        }
        self.status = status
        self.headers = headers
        self.body = body
        self.handleBody = handleBody
        self.handle = handle
    }

    /// The handle to queue on a connection that is to close after this response: the twin, made
    /// once; the shared handle if libmicrohttpd cannot make one (the connection then stays open
    /// until the drain closes it idle).
    var closingHandle: OpaquePointer {
        if let made = OpaquePointer(bitPattern: closingTwin.load(ordering: .acquiring)) { return made }
        var closing = headers
        closing.set("Connection", "close")
        guard let made = ResponseBuilder.makeHandle(body: handleBody, headers: closing) else { return handle }
        let (exchanged, original) = closingTwin.compareExchange(expected: 0, desired: UInt(bitPattern: made), ordering: .acquiringAndReleasing)
        if exchanged { return made }
        // Another thread made one first: keep that one.
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: original) ?? handle
    }

    deinit {
        MHD_destroy_response(handle)
        if let twin = OpaquePointer(bitPattern: closingTwin.load(ordering: .acquiring)) { MHD_destroy_response(twin) }
    }
}
