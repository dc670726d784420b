/// One group of `LogReader.stats`: a key (a rule name, a campaign, a day, …) and its hit count.
public struct StatsRow: Sendable, Equatable {
    /// The group's value; `nil` for hits without one (no rule, no campaign), shown as `(none)`.
    public var key: String?
    /// How many hits the group has.
    public var hits: Int

    /// A group and its count.
    public init(key: String?, hits: Int) {
        self.key = key
        self.hits = hits
    }

    /// What a missing key is shown as.
    public static let noneKey = "(none)"
}
