/// Answers requests. Called on the server's worker threads, many at once, so it must be `Sendable`
/// and must not block: it runs inside libmicrohttpd's event loop, and a blocked worker stalls every
/// connection that worker owns. Anything slow (disk, database) belongs on another thread.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// A responder made from a closure, handy for tests and small tools.
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse { body(request) }
}
