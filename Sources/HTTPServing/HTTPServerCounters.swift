import Synchronization

/// A server's live counters, made before the server so that whoever reports them (a health page)
/// can hold them from the start instead of being wired to the server afterwards. Updated with
/// relaxed atomics by libmicrohttpd's threads; read as an `HTTPServerStatistics` snapshot.
public final class HTTPServerCounters: Sendable {
    let inFlight = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let cutShort = Atomic<Int>(0)
    let connections = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    let closedByServer = Atomic<Int>(0)

    public init() {}

    /// The counters now.
    public var statistics: HTTPServerStatistics {
        HTTPServerStatistics(
            requestsInFlight: inFlight.load(ordering: .relaxed),
            responsesSent: sent.load(ordering: .relaxed),
            exchangesCutShort: cutShort.load(ordering: .relaxed),
            openConnections: connections.load(ordering: .relaxed),
            connectionsRefused: refused.load(ordering: .relaxed),
            connectionsClosedByServer: closedByServer.load(ordering: .relaxed)
        )
    }
}

/// Counters a running server keeps, for health checks and tests.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// Requests whose responder has run and whose exchange has not ended yet.
    public var requestsInFlight: Int
    /// Exchanges that ended with the whole response sent.
    public var responsesSent: Int
    /// Exchanges that ended any other way (client gone, timeout, shutdown).
    public var exchangesCutShort: Int
    /// Connections open right now.
    public var openConnections: Int
    /// Connections refused at a limit (in all or per address) as they arrived.
    public var connectionsRefused: Int
    /// Connections the server closed itself: a head or body that took too long (a trickling client,
    /// an idle keep-alive connection past its time), an idle one given up at the limit, or an idle one
    /// when a stop's drain ended.
    public var connectionsClosedByServer: Int

    public init(
        requestsInFlight: Int, responsesSent: Int, exchangesCutShort: Int, openConnections: Int, connectionsRefused: Int = 0,
        connectionsClosedByServer: Int = 0
    ) {
        self.requestsInFlight = requestsInFlight
        self.responsesSent = responsesSent
        self.exchangesCutShort = exchangesCutShort
        self.openConnections = openConnections
        self.connectionsRefused = connectionsRefused
        self.connectionsClosedByServer = connectionsClosedByServer
    }

    /// All counters at zero, as before a server starts.
    public static let zero = HTTPServerStatistics(requestsInFlight: 0, responsesSent: 0, exchangesCutShort: 0, openConnections: 0)

    /// The counters of two listeners together.
    public static func + (lhs: HTTPServerStatistics, rhs: HTTPServerStatistics) -> HTTPServerStatistics {
        HTTPServerStatistics(
            requestsInFlight: lhs.requestsInFlight + rhs.requestsInFlight,
            responsesSent: lhs.responsesSent + rhs.responsesSent,
            exchangesCutShort: lhs.exchangesCutShort + rhs.exchangesCutShort,
            openConnections: lhs.openConnections + rhs.openConnections,
            connectionsRefused: lhs.connectionsRefused + rhs.connectionsRefused,
            connectionsClosedByServer: lhs.connectionsClosedByServer + rhs.connectionsClosedByServer
        )
    }
}
