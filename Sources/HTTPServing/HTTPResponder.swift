/// Answers requests. Called on the server's worker threads, many at once, so it must be `Sendable`
/// and must not block: it runs inside libmicrohttpd's event loop, and a blocked worker stalls every
/// connection that worker owns. Anything slow (disk, database) belongs on another thread.
public protocol HTTPResponder: Sendable {
    /// What the responder attaches to each response for the server's completion observer (the facts a
    /// request log needs, say). The server never looks inside; it hands the value back typed.
    associatedtype Annotation: Sendable = Void

    func respond(to request: HTTPRequest) -> AnnotatedResponse<Annotation>
}

/// A responder made from a closure, handy for tests and small tools; it annotates nothing.
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) -> AnnotatedResponse<Void> { AnnotatedResponse(body(request), annotation: ()) }
}
