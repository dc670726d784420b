/// Answers requests. Called on the server's worker threads, many at once, so it must be `Sendable`
/// and must not block: it runs inside libmicrohttpd's event loop, and a blocked worker stalls every
/// connection that worker owns. Anything slow (disk, database) belongs on another thread.
public protocol HTTPResponder: Sendable {
    /// What the responder attaches to each response for the server's completion observer (the facts a
    /// request log needs, say). The server never looks inside; it hands the value back typed.
    associatedtype Annotation: Sendable = Void

    func respond(to request: HTTPRequest) -> AnnotatedResponse<Annotation>

    /// An answer for a request that declares a body, given before the body is read (the request
    /// has its head only); `nil` reads the body and calls `respond(to:)`. The server sends it with
    /// `Connection: close` and reads nothing more: a refusal that needs only the head (a missing
    /// credential) then costs the server no body from a client that may be trickling one.
    func refusal(beforeBodyOf request: HTTPRequest) -> HTTPResponse?
}

extension HTTPResponder {
    public func refusal(beforeBodyOf request: HTTPRequest) -> HTTPResponse? { nil }
}

/// A responder made from a closure, handy for tests and small tools; it annotates nothing.
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) -> AnnotatedResponse<Void> { AnnotatedResponse(body(request), annotation: ()) }
}
