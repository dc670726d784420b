/// The rollup tables' shape, shared by every backend: per bucket (`bucket_ms`, the bucket's start in
/// UTC milliseconds) and combination of dimension values, how many hits there were (`hits`). The
/// dimensions are the hits table's columns of the same names, so a filter or a grouping reads the
/// same on both. `status` is the exact status, not its class: there are few distinct statuses, and
/// the funnel counts views with status 200 and `stats --by status` groups by it.
package enum RollupTable {
    /// The dimension columns, in the order of `RollupKey.dimensionValues`.
    package static let dimensionColumns = [
        "site", "host", "rule", "kind", "status", "client_class", "utm_source", "utm_medium", "utm_campaign", "event",
    ]

    /// The column holding the bucket's start.
    package static let bucketColumn = "bucket_ms"

    /// The column holding the count.
    package static let countColumn = "hits"

    /// Every hit of `records` counted per key, for each grain (the day counts are summed from the hour
    /// counts, which are far fewer than the records).
    package static func counts(of records: [LogRecord]) -> [RollupGrain: [RollupKey: Int64]] {
        var hours: [RollupKey: Int64] = [:]
        for record in records { hours[RollupKey(record, grain: .hour), default: 0] += 1 }
        var days: [RollupKey: Int64] = [:]
        for (key, count) in hours {
            var day = key
            day.bucketStart = RollupGrain.day.bucketStart(key.bucketStart)
            days[day, default: 0] += count
        }
        return [.hour: hours, .day: days]
    }
}
