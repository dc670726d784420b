import HTTPServing

/// A client that hands each request straight to a server's in-process entry point
/// (`LinkhostServer.answer`, `AdminServer.answer`) instead of a socket, and reads the answer as a
/// client of the real server would (`HTTPResponse.delivered(toMethod:)`): the serving path in
/// milliseconds, for tests of what is answered rather than of the HTTP layer.
///
/// Its `request` takes what `RawHTTPClient.request` takes and returns the same `Response`, so a
/// test reads an answer the same way whichever way it came.
public struct InProcessClient: Sendable {
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.answer = answer
    }

    /// Sends one request. The `Host` header comes first unless `headers` has one, and a body gets its
    /// `Content-Length`, as `RawHTTPClient` writes them; the peer is `clientAddress`. Throws when a
    /// streamed body fails part-way, as a real client would find it cut short.
    public func request(
        _ method: String = "GET",
        _ target: String,
        host: String? = "localhost",
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        version: String = "HTTP/1.1",
        clientAddress: String = "127.0.0.1"
    ) throws -> RawHTTPClient.Response {
        var fields: [(String, String)] = []
        if let host, !headers.contains(where: { $0.0.lowercased() == "host" }) { fields.append(("Host", host)) }
        fields += headers
        if !body.isEmpty { fields.append(("Content-Length", "\(body.count)")) }
        let request = HTTPRequest(method: method, target: target, version: version, headers: HTTPHeaders(fields), clientAddress: clientAddress, body: body)
        let response = answer(request)
        let sent = response.delivered(toMethod: method)
        guard sent.complete else { throw RawHTTPClient.ClientError.malformed("the streamed body failed part-way") }
        return RawHTTPClient.Response(status: response.status, headers: sent.headers.map { ($0.name, $0.value) }, body: sent.body)
    }
}
