import HTTPServing
import LinkLog
import LinkhostAdmin
import LinkhostKit

/// The admin log API's query parameters (`LogQueryParameters`) and its paging cursor
/// (`LogCursor`), from a query string as a request carries it. What is accepted names each
/// parameter once and only allowed ones; the filter holds exactly what the values say (time
/// bounds through `TimeBound`, the host normalized, the limit in range); a cursor's text form
/// reads back as the same cursor.
enum AdminQueryFuzzing {
    static let target = FuzzTarget(
        name: "admin-query",
        summary: "the log API's query parameters (LogQueryParameters → LogFilter) and cursors (LogCursor)",
        run: run
    )

    static let now: Int64 = 1_790_000_000_000
    static let maximumLimit = 10_000
    static let extra = ["columns", "cursor"]

    static func run(_ bytes: [UInt8]) {
        let query = String(decoding: bytes, as: UTF8.self)
        let request = HTTPRequest(method: "GET", target: "/api/v1/hits?" + query)
        let items = request.queryItems
        switch LogQueryParameters.read(items, extra: extra) {
        case .failure:
            break
        case .success(let parameters):
            let allowed = LogQueryParameters.filterNames + extra + ["format"]
            // An empty value is a parameter left out (LogQueryParameters); the others count once each.
            let given = items.filter { !($0.value ?? "").isEmpty }
            FuzzReport.check(parameters.values.count == given.count, "repeated parameters accepted in \(FuzzReport.shown(query))")
            FuzzReport.check(items.allSatisfy { allowed.contains($0.name) }, "an unknown parameter accepted in \(FuzzReport.shown(query))")
            if case .success(let filter) = parameters.filter(now: now, maximumLimit: maximumLimit) {
                check(filter, parameters.values, query)
            }
            if let text = parameters.values["cursor"], let cursor = LogCursor(text: text) {
                FuzzReport.check(LogCursor(text: cursor.text) == cursor, "cursor \(FuzzReport.shown(text)) does not read back from \(cursor.text)")
            }
        }
        if let cursor = LogCursor(text: query) {
            FuzzReport.check(LogCursor(text: cursor.text) == cursor, "cursor \(FuzzReport.shown(query)) does not read back from \(cursor.text)")
            FuzzReport.check(cursor.timestampMilliseconds >= 0 && cursor.id >= 0, "a negative cursor from \(FuzzReport.shown(query))")
        }
    }

    private static func check(_ filter: LogFilter, _ values: [String: String], _ query: String) {
        FuzzReport.check(
            filter.since == values["since"].flatMap { try? TimeBound.parse($0, now: now) }, "since differs from TimeBound in \(FuzzReport.shown(query))")
        FuzzReport.check(
            filter.until == values["until"].flatMap { try? TimeBound.parse($0, now: now) }, "until differs from TimeBound in \(FuzzReport.shown(query))")
        FuzzReport.check(
            filter.host == values["host"].map { HostLookup.normalize($0) ?? $0 }, "host differs from the normalized one in \(FuzzReport.shown(query))")
        if let limit = filter.limit { FuzzReport.check((1...maximumLimit).contains(limit), "limit \(limit) accepted from \(FuzzReport.shown(query))") }
        FuzzReport.check(filter.kind == values["kind"] && filter.clientClass == values["client"], "kind or client changed in \(FuzzReport.shown(query))")
    }
}
