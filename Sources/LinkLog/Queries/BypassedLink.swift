/// A link whose fallback page a person opened the app from with the page's own "Open in …" button:
/// the app was installed, yet the link showed the web page — a Universal Link that did not open the
/// app. Grouped by where the view came from, with how many such opens it had.
public struct BypassedLink: Sendable, Equatable {
    /// The link as the view logged it (secrets hashed); `hits` counts its bypass opens.
    public var link: LoggedLink
    /// The app whose in-app browser showed the page (`instagram`, …), if one did.
    public var inApp: String?
    /// The host of the page's Referer, if it had one.
    public var referrerHost: String?

    public init(link: LoggedLink, inApp: String?, referrerHost: String?) {
        self.link = link
        self.inApp = inApp
        self.referrerHost = referrerHost
    }
}

extension LogReader {
    /// The views whose credited app open came through the page's own open button (`bypass_opens`),
    /// grouped by link, in-app browser and referrer host, most such opens first; the filter's time
    /// range and fields apply to the view, as in the funnel, and its limit caps the groups.
    ///
    /// Read from the paired bypass opens by time (`hits_bypass_time` holds them alone: an open of a
    /// view in the range comes at most the pairing window after it, or the clock skew before) and
    /// each one's view by id: they are few beside the views of a range. On a 10-million-row log,
    /// walking every credited open instead took a quarter of a second.
    public func bypassedLinks(_ filter: LogFilter = LogFilter()) throws -> [BypassedLink] {
        var view = filter
        view.kind = nil
        view.limit = nil
        var arguments = SQLArguments(dialect: connection.dialect)
        let viewClauses = SQLCondition.clauses(of: view, table: "seen", into: &arguments)
        // Written out, not bound: the partial index is usable only when the statement's own text
        // implies its condition.
        var clauses = [
            "opened.kind = 'app_open'", "opened.event = '\(FunnelRow.bypassEvents[0])'", "opened.view_id IS NOT NULL", "seen.id = opened.view_id",
        ]
        clauses += SQLCondition.timeClauses(
            since: view.since.map { $0 - OpenCrediting.tokenClockSkewMilliseconds },
            until: view.until.map { $0 > Int64.max - FunnelRow.pairingWindowMilliseconds ? Int64.max : $0 + FunnelRow.pairingWindowMilliseconds },
            column: "opened.ts_ms", into: &arguments)
        clauses += viewClauses
        var sql = """
            SELECT seen.site, seen.host, seen.path, seen.query, seen.rule, seen.in_app, seen.referrer_host, COUNT(*) AS opens
            FROM hits AS opened CROSS JOIN hits AS seen\(SQLCondition.whereClause(clauses))
            GROUP BY seen.site, seen.host, seen.path, seen.query, seen.rule, seen.in_app, seen.referrer_host
            ORDER BY opens DESC
            """
        if let limit = filter.limit { sql += " LIMIT \(arguments.add(.integer(Int64(limit))))" }
        var links: [BypassedLink] = []
        try connection.query(sql, arguments.values) { row in
            let link = LoggedLink(
                siteID: row[0].text, host: row[1].text ?? "", path: row[2].text ?? "", query: row[3].text, isBeforeQueries: false, rule: row[4].text,
                hits: Int(row[7].integer ?? 0))
            links.append(BypassedLink(link: link, inApp: row[5].text, referrerHost: row[6].text))
        }
        return links
    }
}
