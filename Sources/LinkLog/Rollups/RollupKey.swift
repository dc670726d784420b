/// One row of a rollup table without its count: a bucket and the value of every dimension. Two hits
/// with the same key are counted together.
package struct RollupKey: Hashable, Sendable {
    package var bucketStart: Int64
    package var site: String?
    package var host: String
    package var rule: String?
    package var kind: String
    package var status: Int
    package var clientClass: String?
    package var utmSource: String?
    package var utmMedium: String?
    package var utmCampaign: String?
    package var event: String?

    /// The key of `record` in buckets of `grain`.
    package init(_ record: LogRecord, grain: RollupGrain) {
        bucketStart = grain.bucketStart(record.timestampMilliseconds)
        site = record.siteID
        host = record.host
        rule = record.rule
        kind = record.kind
        status = record.status
        clientClass = record.clientClass
        utmSource = record.utmSource
        utmMedium = record.utmMedium
        utmCampaign = record.utmCampaign
        event = record.event
    }

    /// The values of `RollupTable.dimensionColumns`, in that order.
    package var dimensionValues: [SQLValue] {
        [
            SQLValue(site), .text(host), SQLValue(rule), .text(kind), .integer(Int64(status)), SQLValue(clientClass), SQLValue(utmSource),
            SQLValue(utmMedium), SQLValue(utmCampaign), SQLValue(event),
        ]
    }
}
