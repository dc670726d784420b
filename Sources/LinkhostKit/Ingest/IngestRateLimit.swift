/// The token bucket that bounds how fast one client network (the address prefix the log stores: an
/// IPv4 /24 or an IPv6 /48) may post app opens and page events to a site.
public struct IngestRateLimit: Sendable, Equatable {
    /// Requests a network may send at once before it must wait.
    public var burst: Int
    /// Tokens added back per second.
    public var perSecond: Int

    public init(burst: Int, perSecond: Int) {
        self.burst = burst
        self.perSecond = perSecond
    }

    /// A burst of 100, refilled at 10 a second: a whole office opening the same invite at once gets
    /// through, a script posting in a loop does not.
    public static let `default` = IngestRateLimit(burst: 100, perSecond: 10)
}
