/// One row of a rollup table without its count: a bucket and the values of the family's dimension
/// columns (`RollupTableSet.columns`). Two hits with the same key are counted together.
package struct RollupKey: Hashable, Sendable {
    package var bucketStart: Int64
    /// The values of the family's columns, in their order.
    package var values: [SQLValue]

    /// The key of `record` in the `all` family, in buckets of `grain`.
    package init(_ record: LogRecord, grain: RollupGrain) {
        bucketStart = grain.bucketStart(record.timestampMilliseconds)
        values = [
            SQLValue(record.siteID), .text(record.host), SQLValue(record.rule), .text(record.kind), .integer(Int64(record.status)),
            SQLValue(record.clientClass), SQLValue(record.utmSource), SQLValue(record.utmMedium), SQLValue(record.utmCampaign), SQLValue(record.event),
        ]
    }

    /// A key from its parts (values in the order of the family's columns).
    package init(bucketStart: Int64, values: [SQLValue]) {
        self.bucketStart = bucketStart
        self.values = values
    }

    /// This key (of the `all` family) cut down to `set`'s columns.
    func projected(to set: RollupTableSet) -> RollupKey {
        RollupKey(bucketStart: bucketStart, values: set.columnPositions.map { values[$0] })
    }

    /// This key in the bucket of `grain` that holds its own.
    func widened(to grain: RollupGrain) -> RollupKey {
        RollupKey(bucketStart: grain.bucketStart(bucketStart), values: values)
    }
}
