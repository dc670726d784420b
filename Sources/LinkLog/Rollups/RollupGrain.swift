/// The time buckets the rollup tables count hits in. Days are made of whole hours, so a day bucket
/// is exactly the sum of its 24 hour buckets, and a time range can be read as whole days, then
/// whole hours, then the raw rows of the hours it cuts (`RollupPlan`). Buckets are UTC and start at
/// multiples of their length since 1970, times before 1970 included (floor, not truncation).
public enum RollupGrain: String, Sendable, CaseIterable {
    case hour
    case day

    /// The grains from the coarsest, the order a range is carved up in.
    public static let coarsestFirst: [RollupGrain] = [.day, .hour]

    /// The coarsest grain: retention deletes whole buckets of it, so no rollup row is cut in two.
    public static let coarsest = RollupGrain.day

    /// The bucket's length in milliseconds.
    public var milliseconds: Int64 {
        switch self {
        case .hour: 3_600_000
        case .day: 86_400_000
        }
    }

    /// The start of the bucket holding `time`.
    public func bucketStart(_ time: Int64) -> Int64 {
        let remainder = time % milliseconds
        return remainder < 0 ? time - remainder - milliseconds : time - remainder
    }

    /// The start of the first bucket that begins at or after `time`; `nil` past the end of `Int64`.
    func firstBucketStart(atOrAfter time: Int64) -> Int64? {
        let start = bucketStart(time)
        if start == time { return start }
        let (next, overflow) = start.addingReportingOverflow(milliseconds)
        return overflow ? nil : next
    }

    /// SQL for the start of the bucket holding the time in `column` (floor, as `bucketStart`).
    func bucketExpression(_ column: String) -> String {
        "(\(column) - ((\(column) % \(milliseconds)) + \(milliseconds)) % \(milliseconds))"
    }
}
