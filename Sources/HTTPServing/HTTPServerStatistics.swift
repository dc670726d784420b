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
}

extension HTTPServerStatistics {
    /// All counters at zero, as before a server starts.
    public static let zero = HTTPServerStatistics(requestsInFlight: 0, responsesSent: 0, exchangesCutShort: 0, openConnections: 0)
}

extension HTTPServerStatistics {
    /// The counters of two listeners together.
    public static func + (lhs: HTTPServerStatistics, rhs: HTTPServerStatistics) -> HTTPServerStatistics {
        HTTPServerStatistics(
            requestsInFlight: lhs.requestsInFlight + rhs.requestsInFlight,
            responsesSent: lhs.responsesSent + rhs.responsesSent,
            exchangesCutShort: lhs.exchangesCutShort + rhs.exchangesCutShort,
            openConnections: lhs.openConnections + rhs.openConnections
        )
    }
}
