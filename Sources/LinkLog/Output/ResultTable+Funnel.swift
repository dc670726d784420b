extension ResultTable {
    /// The funnel's count columns, in output order, after the group key.
    static let funnelCountColumns = ["views", "open_clicks", "store_clicks", "copies", "app_opens", "opens_after_view", "bypass_opens", "installs", "previews"]
    /// The funnel's rate columns, each a count divided by `views`, in output order after the counts.
    static let funnelRateColumns = ["open_click_rate", "store_click_rate", "copy_rate", "opens_after_view_rate", "bypass_rate", "install_rate"]

    /// The funnel: a key column named after `dimension` (none without one; a missing key reads
    /// `(none)`, as in statistics), the counts, then the rates. With `percentages` a rate reads
    /// `12.5%` and `–` without views, for a person; otherwise it is a fraction rounded to four
    /// decimals (`0.125`) or NULL, for JSON and CSV.
    public init(funnel rows: [FunnelRow], dimension: FunnelDimension?, percentages: Bool) {
        var columns: [Column] = []
        // The headers are wider than a terminal; when they must be cut, the key is cut no sooner than
        // they are, so a campaign stays readable.
        if let dimension { columns.append(Column(name: dimension.rawValue, giveWay: .never)) }
        columns += (Self.funnelCountColumns + Self.funnelRateColumns).map { Column(name: $0, isNumeric: true) }
        self.columns = columns
        self.rows = rows.map { row in
            var cells: [String?] = []
            if dimension != nil { cells.append(row.key ?? StatsRow.noneKey) }
            cells += [row.views, row.openClicks, row.storeClicks, row.copies, row.appOpens, row.opensAfterView, row.bypassOpens, row.installs, row.previews].map
            {
                String($0)
            }
            cells += [row.openClicks, row.storeClicks, row.copies, row.opensAfterView, row.bypassOpens, row.installs].map { count in
                percentages ? Self.percentText(count, of: row.views) : Self.fractionText(count, of: row.views)
            }
            return cells
        }
    }

    /// `count / total` rounded half up to four decimals, without trailing zeros (`0.125`, `1`);
    /// `nil` when `total` is 0. Integer arithmetic, so the text is exact.
    static func fractionText(_ count: Int, of total: Int) -> String? {
        guard total > 0 else { return nil }
        let tenThousandths = (count * 20_000 + total) / (2 * total)
        var decimals = String(tenThousandths % 10_000)
        decimals = String(repeating: "0", count: 4 - decimals.count) + decimals
        while decimals.last == "0" { decimals.removeLast() }
        return String(tenThousandths / 10_000) + (decimals.isEmpty ? "" : "." + decimals)
    }

    /// `count / total` as a percentage with one decimal (`12.5%`), `–` when `total` is 0.
    static func percentText(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "–" }
        let tenthsOfPercent = (count * 2_000 + total) / (2 * total)
        return "\(tenthsOfPercent / 10).\(tenthsOfPercent % 10)%"
    }
}
