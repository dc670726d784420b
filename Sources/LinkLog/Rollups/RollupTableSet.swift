/// A family of rollup tables (one per grain) that counts hits by some of the rollup dimensions.
/// `all` keeps every dimension and answers any statistic; the narrower ones keep only what a common
/// kind of question needs, and have a fraction of the rows: a statistic reads the narrowest family
/// that has every column it groups or filters by. The writer keeps every family in step.
public enum RollupTableSet: String, Sendable, CaseIterable {
    /// Every dimension: `hits_hourly`, `hits_daily`.
    case all = "hits"
    /// Campaign reports and the funnel by campaign: no site, host or rule, the columns that
    /// multiply a campaign's rows the most.
    case campaigns
    /// Reports by site, rule and client: no host and no UTM fields.
    case sites
    /// Traffic by site, kind and status (and the funnel's events): what `stats --by day`, `--by kind`
    /// and an unfiltered funnel need, a few dozen rows a day.
    case kinds

    /// The families from the fewest rows to the most (on a typical log), the order they are tried in.
    public static let narrowestFirst: [RollupTableSet] = [.kinds, .campaigns, .sites, .all]

    /// The dimension columns this family keeps, in `RollupTable.dimensionColumns` order.
    public var columns: [String] {
        switch self {
        case .all: RollupTable.dimensionColumns
        case .campaigns: ["kind", "status", "client_class", "utm_source", "utm_medium", "utm_campaign", "event"]
        case .sites: ["site", "rule", "kind", "status", "client_class", "event"]
        case .kinds: ["site", "kind", "status", "event"]
        }
    }

    /// Where in `RollupTable.dimensionColumns` each of `columns` is.
    var columnPositions: [Int] {
        columns.map { RollupTable.dimensionColumns.firstIndex(of: $0)! }
    }

    /// The table of this family for `grain`, such as `hits_hourly` or `campaigns_daily`.
    public func table(_ grain: RollupGrain) -> String {
        "\(rawValue)_\(grain == .hour ? "hourly" : "daily")"
    }

    /// The family this one's hours are summed from in a rebuild: the narrowest one built before it
    /// (in `allCases` order) that has all its columns, so each reads as few rows as it can.
    var rebuildSource: RollupTableSet {
        let earlier = RollupTableSet.allCases.prefix { $0 != self }
        return earlier.filter { Set(columns).isSubset(of: $0.columns) }.min { $0.columns.count < $1.columns.count } ?? .all
    }

    /// The narrowest family that has all of `columns`.
    static func narrowest(containing columns: Set<String>) -> RollupTableSet {
        narrowestFirst.first { columns.isSubset(of: $0.columns) } ?? .all
    }
}
