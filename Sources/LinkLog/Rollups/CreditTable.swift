/// The rollup of app opens credited to views: per bucket of the **view's** time, the view's
/// dimension values (the columns of `RollupTable.dimensionColumns`) and the credited open's way in,
/// how many app opens have that view as the one they are paired with (`hits.view_id`, kept by
/// `OpenCrediting`). The funnel's "opens after a view", "bypass opens" and "installs" read it the
/// way statistics read the hit rollups, so pairing costs nothing at query time; it is filed under
/// the view because the funnel files a credited open under its view's group and filters on the
/// view's fields. A view has no `event` of its own, so that column holds the open's (`universal-link`,
/// `custom-scheme`, `pasteboard`, `install-referrer`, or none), which tells the funnel's columns apart.
public enum CreditTable {
    /// The table for `grain`: `credits_hourly` or `credits_daily`.
    public static func table(_ grain: RollupGrain) -> String {
        "credits_\(grain == .hour ? "hourly" : "daily")"
    }

    /// Its dimension columns: those of the full hit rollup, so a filter reads the same on both.
    public static var columns: [String] { RollupTable.dimensionColumns }

    /// Where in `columns` the open's event stands in for the view's.
    static let eventPosition = RollupTable.dimensionColumns.firstIndex(of: "event")!

    /// The credited opens with their views' columns (the open's `event` in place of the view's),
    /// one row each with `opens` = 1: what the cut hours at the ends of a range are counted from,
    /// under the name `hits` like the hit table, with the view's time as `ts_ms`. Read from the
    /// views' side, so the range's time condition picks the views through the time index and each
    /// view's opens are found through `hits_view`; joined from the opens' side, PostgreSQL walked
    /// every paired open of the log (a merge join, half a second on 10 million rows), and even
    /// from the views' side it merge-joined them with the whole index (`SQLDialect.lookupJoin`).
    static func pairedViews(_ dialect: any SQLDialect) -> String {
        let columns = (RollupTable.dimensionColumns + unrolledColumns).map { $0 == "event" ? "opened.event AS event" : "seen.\($0)" }
        let views = dialect.lookupJoin("hits AS seen", "hits", as: "opened", columns: ["event"], on: "opened.view_id = seen.id")
        return "(SELECT seen.ts_ms, \(columns.joined(separator: ", ")), 1 AS opens FROM \(views) "
            + "WHERE seen.kind = 'fallback' AND seen.status = 200) AS hits"
    }

    /// The columns a funnel may group by that the rollups do not keep (`StatsDimension.isRolledUp`).
    static let unrolledColumns = ["in_app", "referrer_host"]

    /// What a piece read from `pairedViews` sums: each credited open once.
    static let pairedViewsCounting = "opens"
}
