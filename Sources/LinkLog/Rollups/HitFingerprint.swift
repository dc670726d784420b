/// What identifies the set of hits in a stretch of time without reading them again: how many there
/// are, and the sum, smallest and largest of their ids. A rebuild counts a chunk's hits on one
/// connection and writes the counts on another; the writer compares the fingerprint it sees inside
/// its transaction with the one the counts were made from, and counts again itself when they
/// differ. Ids are never reused while rows of the same time exist (SQLite's rowids grow past the
/// largest; PostgreSQL's come from a sequence), and a row is only ever added or deleted whole, so a
/// changed set of rows changes the count or the sum.
package struct HitFingerprint: Equatable, Sendable {
    package var rows: Int64
    package var idSum: Int64
    package var smallestID: Int64?
    package var largestID: Int64?

    /// The fingerprint of no rows at all.
    package static let empty = HitFingerprint(rows: 0, idSum: 0, smallestID: nil, largestID: nil)

    /// The select list that computes it over `hits`, in this order.
    static let selectList = "COUNT(*), SUM(id), MIN(id), MAX(id)"

    /// The fingerprint from a row of `selectList` (SUM, MIN and MAX are NULL over no rows).
    init(row: ArraySlice<SQLValue>) {
        let values = Array(row)
        rows = values[0].integer ?? 0
        idSum = values[1].integer ?? 0
        smallestID = values[2].integer
        largestID = values[3].integer
    }

    init(rows: Int64, idSum: Int64, smallestID: Int64?, largestID: Int64?) {
        self.rows = rows
        self.idSum = idSum
        self.smallestID = smallestID
        self.largestID = largestID
    }

    /// This fingerprint and `other`'s, for rows of two disjoint groups taken together.
    func combined(with other: HitFingerprint) -> HitFingerprint {
        func pick(_ left: Int64?, _ right: Int64?, _ better: (Int64, Int64) -> Int64) -> Int64? {
            guard let left else { return right }
            guard let right else { return left }
            return better(left, right)
        }
        return HitFingerprint(
            rows: rows + other.rows, idSum: idSum &+ other.idSum, smallestID: pick(smallestID, other.smallestID, min),
            largestID: pick(largestID, other.largestID, max))
    }
}
