import CDNCheck

/// The `server.cdnCheck` object: how often `serve` compares Apple's CDN copy of each host's AASA
/// file with the file it serves (the result is in the health report).
public struct CDNCheckSettings: Sendable, Equatable {
    /// Hours between checks (fractions allowed); the first check runs at start, and again after a
    /// reload that changed what is served.
    public var intervalHours: Double
    /// The CDN's base URL; a host's copy is at `<cdnBase>/a/v1/<host>`.
    public var cdnBase: String
    /// How long one host's answer may take.
    public var timeoutSeconds: Int

    public init(intervalHours: Double, cdnBase: String = CDNChecker.appleBase, timeoutSeconds: Int = 10) {
        self.intervalHours = intervalHours
        self.cdnBase = cdnBase
        self.timeoutSeconds = timeoutSeconds
    }

    /// The checker these settings describe.
    var checker: CDNChecker { CDNChecker(base: cdnBase, timeoutSeconds: Double(timeoutSeconds)) }
}
