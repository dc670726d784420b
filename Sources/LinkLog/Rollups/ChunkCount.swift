/// A chunk's hits counted into rows of the full family's hourly table, and the fingerprint of the
/// hits they were counted from (the writer writes them only if it sees the same hits).
struct ChunkCount: Sendable {
    var fullHours: [RollupKey: Int64]
    var fingerprint: HitFingerprint

    /// Adds one result row: the bucket, the full family's columns, then the group's fingerprint
    /// (`HitFingerprint.selectList`, whose first part is the group's count).
    mutating func add(row: [SQLValue]) {
        let columns = RollupTableSet.all.columns.count
        let group = HitFingerprint(row: row[(columns + 1)...])
        guard let bucket = row[0].integer, group.rows > 0 else { return }
        fullHours[RollupKey(bucketStart: bucket, values: Array(row[1...columns])), default: 0] += group.rows
        fingerprint = fingerprint.combined(with: group)
    }
}
