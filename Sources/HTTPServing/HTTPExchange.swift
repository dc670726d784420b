/// A finished request/response pair, handed to the server's completion observer after
/// libmicrohttpd is done with the connection's request (sent, failed or cut off).
public struct HTTPExchange: Sendable {
    /// How the exchange ended, in libmicrohttpd's terms.
    public enum Outcome: Sendable, Equatable {
        /// The whole response was handed to the kernel.
        case completed
        /// A socket error ended it before the response was sent.
        case failed
        /// The connection timed out.
        case timedOut
        /// The server stopped while the response was being sent.
        case serverShutdown
        /// The client's request could not be read completely.
        case readError
        /// The client closed the connection first.
        case clientAborted
    }

    public let request: HTTPRequest
    public let status: Int
    /// Bytes of body the response carried (0 for HEAD, whose body is never sent).
    public let bodySize: Int
    public let outcome: Outcome
    /// Time from the end of the request head to the end of the exchange, in nanoseconds.
    public let durationNanoseconds: UInt64

    /// An exchange as the server reports it; also for code that answers requests in-process.
    package init(request: HTTPRequest, status: Int, bodySize: Int, outcome: Outcome = .completed, durationNanoseconds: UInt64 = 0) {
        self.request = request
        self.status = status
        self.bodySize = bodySize
        self.outcome = outcome
        self.durationNanoseconds = durationNanoseconds
    }

    /// Whether the client got the whole response.
    public var wasSent: Bool { outcome == .completed }
}
