/// The fields of a record that place it in a full-family hour row, hashed without building an array
/// per record (what `RollupTable.counts` groups a batch by first).
struct RollupHourFields: Hashable {
    let hour: Int64
    let site: String?
    let host: String
    let rule: String?
    let kind: String
    let status: Int
    let clientClass: String?
    let utmSource: String?
    let utmMedium: String?
    let utmCampaign: String?
    let event: String?
    /// Where in the batch a record with these fields is (the others do not matter to the key): an
    /// index, not a copy of the record, which would retain every one of its texts again.
    let recordIndex: Int

    init(_ record: LogRecord, at recordIndex: Int) {
        hour = RollupGrain.hour.bucketStart(record.timestampMilliseconds)
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
        self.recordIndex = recordIndex
    }

    static func == (left: RollupHourFields, right: RollupHourFields) -> Bool {
        guard left.hour == right.hour, left.kind == right.kind, left.status == right.status, left.host == right.host else { return false }
        guard left.site == right.site, left.rule == right.rule, left.clientClass == right.clientClass, left.event == right.event else { return false }
        return left.utmSource == right.utmSource && left.utmMedium == right.utmMedium && left.utmCampaign == right.utmCampaign
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hour)
        hasher.combine(kind)
        hasher.combine(status)
        hasher.combine(host)
        hasher.combine(site)
        hasher.combine(rule)
        hasher.combine(clientClass)
        hasher.combine(utmSource)
        hasher.combine(utmMedium)
        hasher.combine(utmCampaign)
        hasher.combine(event)
    }
}
