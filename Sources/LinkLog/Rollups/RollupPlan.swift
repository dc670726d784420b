/// Carves a time range into the pieces a count reads: whole days from the daily rollup, the whole
/// hours around them from the hourly rollup, and the cut hours at either end from the hits, through
/// their time index. The pieces do not overlap and together are exactly the range, so a count over
/// them is exactly the count over the hits, whatever the bounds.
enum RollupPlan {
    /// The pieces of `[since, until)` (open where `nil`), in time order.
    static func pieces(since: Int64?, until: Int64?, grains: ArraySlice<RollupGrain> = RollupGrain.coarsestFirst[...]) -> [CountPiece] {
        if let since, let until, since >= until { return [] }
        guard let grain = grains.first else { return [CountPiece(source: .hits, since: since, until: until)] }
        let finer = grains.dropFirst()
        // The whole buckets of this grain inside the range: from the first bucket starting at or
        // after `since` to the last one ending at or before `until`.
        let first: Int64?
        if let since {
            guard let start = grain.firstBucketStart(atOrAfter: since) else { return pieces(since: since, until: until, grains: finer) }
            first = start
        } else {
            first = nil
        }
        let last = until.map { grain.bucketStart($0) }
        if let first, let last, first >= last { return pieces(since: since, until: until, grains: finer) }

        var result: [CountPiece] = []
        if let since, let first, since < first { result += pieces(since: since, until: first, grains: finer) }
        result.append(CountPiece(source: .rollup(grain), since: first, until: last))
        if let until, let last, last < until { result += pieces(since: last, until: until, grains: finer) }
        return result
    }
}

/// A stretch of time `[since, until)` (open where `nil`) and the table its hits are counted from.
struct CountPiece: Equatable {
    var source: CountSource
    var since: Int64?
    var until: Int64?
}

/// Where one part of a count comes from: the hits themselves, or a rollup table.
enum CountSource: Equatable {
    case hits
    case rollup(RollupGrain)
}
