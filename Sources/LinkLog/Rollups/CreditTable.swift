/// The rollup of app opens credited to views: per bucket of the **view's** time and the view's
/// dimension values (the columns of `RollupTable.dimensionColumns`), how many app opens have that
/// view as the latest one of their invite code before them (`hits.view_id`, kept by
/// `OpenCrediting`). The funnel's "opens after a view" reads it the way statistics read the hit
/// rollups, so pairing costs nothing at query time; it is filed under the view because the funnel
/// files a credited open under its view's group and filters on the view's fields.
public enum CreditTable {
    /// The table for `grain`: `credits_hourly` or `credits_daily`.
    public static func table(_ grain: RollupGrain) -> String {
        "credits_\(grain == .hour ? "hourly" : "daily")"
    }

    /// Its dimension columns: those of the full hit rollup, so a filter reads the same on both.
    public static var columns: [String] { RollupTable.dimensionColumns }

    /// The views that opens can be credited to (what `OpenCrediting.latestView` pairs with), each
    /// with its columns and `opens`, the number of opens credited to it: what the cut hours at the
    /// ends of a range are counted from (summing `opens`), under the name `hits` like the hit table.
    /// Read from the view's side, so the range's time condition picks the views through the time
    /// index and each view's opens are looked up through `hits_view`; joined from the opens' side,
    /// PostgreSQL walked every paired open of the log (a merge join, half a second on 10 million rows).
    static let pairedViews =
        "(SELECT seen.ts_ms, \(RollupTable.dimensionColumns.map { "seen.\($0)" }.joined(separator: ", ")), "
        + "(SELECT COUNT(*) FROM hits AS opened WHERE opened.view_id = seen.id) AS opens "
        + "FROM hits AS seen WHERE seen.kind = 'fallback' AND seen.status = 200 AND seen.secret IS NOT NULL) AS hits"

    /// What a piece read from `pairedViews` sums: each view's credited opens.
    static let pairedViewsCounting = "opens"
}
