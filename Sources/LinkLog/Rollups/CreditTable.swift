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

    /// The hits as credited opens, one row per paired open carrying its view's columns: what the cut
    /// hours at the ends of a range are counted from, under the name `hits` like the hit table.
    static let pairedViews =
        "(SELECT seen.ts_ms, \(RollupTable.dimensionColumns.map { "seen.\($0)" }.joined(separator: ", ")) "
        + "FROM hits AS opened JOIN hits AS seen ON seen.id = opened.view_id WHERE opened.view_id IS NOT NULL) AS hits"
}
