/// The rollup tables' shape, shared by every backend: per bucket (`bucket_ms`, the bucket's start in
/// UTC milliseconds) and combination of dimension values, how many hits there were (`hits`). The
/// dimensions are the hits table's columns of the same names, so a filter or a grouping reads the
/// same on both. `status` is the exact status, not its class: there are few distinct statuses, and
/// the funnel counts views with status 200 and `stats --by status` groups by it.
package enum RollupTable {
    /// The dimension columns of the `all` family, in the order of `RollupKey.values`.
    package static let dimensionColumns = [
        "site", "host", "rule", "kind", "status", "client_class", "utm_source", "utm_medium", "utm_campaign", "event",
    ]

    /// The column holding the bucket's start.
    package static let bucketColumn = "bucket_ms"

    /// The column holding the count.
    package static let countColumn = "hits"

    /// Every hit of `records` counted per key, for each family and grain (each family's hour counts
    /// are summed from the full hour counts, and its day counts from its hour counts: far fewer than
    /// the records).
    package static func counts(of records: [LogRecord]) -> [(set: RollupTableSet, grain: RollupGrain, counts: [RollupKey: Int64])] {
        // Grouped first by the record's own fields (no array per record), then made keys.
        var grouped: [RollupHourFields: Int64] = [:]
        for (index, record) in records.enumerated() { grouped[RollupHourFields(record, at: index), default: 0] += 1 }
        var full: [RollupKey: Int64] = [:]
        full.reserveCapacity(grouped.count)
        for (fields, count) in grouped { full[RollupKey(records[fields.recordIndex], grain: .hour), default: 0] += count }
        return counts(fromFullHours: full)
    }

    /// Every family's hour and day counts from the full family's hour counts (`full`): each narrower
    /// family's hours are projections of the full ones, and each family's days sums of its hours.
    package static func counts(fromFullHours full: [RollupKey: Int64]) -> [(set: RollupTableSet, grain: RollupGrain, counts: [RollupKey: Int64])] {
        var result: [(set: RollupTableSet, grain: RollupGrain, counts: [RollupKey: Int64])] = []
        for set in RollupTableSet.allCases {
            var hours: [RollupKey: Int64] = [:]
            if set == .all {
                hours = full
            } else {
                for (key, count) in full { hours[key.projected(to: set), default: 0] += count }
            }
            var days: [RollupKey: Int64] = [:]
            for (key, count) in hours { days[key.widened(to: .day), default: 0] += count }
            result += [(set, .hour, hours), (set, .day, days)]
        }
        return result
    }
}
