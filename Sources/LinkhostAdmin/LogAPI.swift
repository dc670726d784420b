import Foundation
import HTTPServing
import LinkLog
import Logging

/// `GET /api/v1/hits`, `/api/v1/stats` and `/api/v1/funnel`: the `log`, `stats` and `stats --funnel`
/// commands over HTTP, with the same filters and, in JSON and CSV, the same bytes.
///
/// Hits come newest first in pages (`limit`, default 100, at most 10,000) with the next page's URL
/// in a `Link: <…>; rel="next"` header, so the JSON body stays exactly the CLI's array. CSV and
/// NDJSON without a `limit` are the whole selection, streamed a thousand rows at a time from the
/// database as the client reads: an export of any size never sits in memory.
struct LogAPI: Sendable {
    static let defaultPageSize = 100
    static let maximumPageSize = 10_000
    static let maximumGroups = 100_000
    /// Rows read per database query while streaming.
    static let streamChunk = 1000

    let database: (any LogDatabase)?
    let logger: Logger

    func hits(_ request: HTTPRequest) -> HTTPResponse {
        answer {
            let parameters = try LogQueryParameters.read(request.queryItems, extra: ["columns", "cursor"]).get()
            let format = try ExportFormat.negotiate(request, format: parameters.values["format"]).get()
            var filter = try parameters.filter(now: LogRecord.currentTimeMilliseconds(), maximumLimit: Self.maximumPageSize).get()
            let columns = try Self.columns(parameters.values["columns"])
            if let text = parameters.values["cursor"] {
                guard let cursor = Self.cursor(text) else {
                    throw HTTPProblem.badParameter("cursor", "\"\(text)\" is not a cursor; use the one in the previous answer's Link header")
                }
                filter.before = cursor
            }
            let reader = try openReader()
            if filter.limit == nil, format != .json {
                return streamAll(reader, filter: filter, columns: columns, format: format)
            }
            let pageSize = filter.limit ?? Self.defaultPageSize
            filter.limit = pageSize + 1
            var rows = try reader.rows(filter)
            var headers = AdminHeaders.with(format.contentType)
            if rows.count > pageSize {
                rows.removeLast(rows.count - pageSize)
                headers.set("Link", "<\(Self.nextURL(request, parameters, cursor: LogCursor(after: rows[rows.count - 1])))>; rel=\"next\"")
            }
            let table = ResultTable(hits: rows, columns: columns)
            return HTTPResponse(status: 200, headers: headers, body: Array(Self.render(table, format).utf8))
        }
    }

    func stats(_ request: HTTPRequest) -> HTTPResponse {
        answer {
            let parameters = try LogQueryParameters.read(request.queryItems, extra: ["by"]).get()
            let format = try ExportFormat.negotiate(request, format: parameters.values["format"]).get()
            let filter = try parameters.filter(now: LogRecord.currentTimeMilliseconds(), maximumLimit: Self.maximumGroups).get()
            let byText = parameters.values["by"] ?? StatsDimension.kind.rawValue
            guard let dimension = StatsDimension(rawValue: byText) else {
                throw HTTPProblem.badParameter(
                    "by", "\"\(byText)\" is not a dimension; allowed: \(StatsDimension.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let table = ResultTable(stats: try openReader().stats(by: dimension, filter), dimension: dimension)
            return HTTPResponse(status: 200, headers: AdminHeaders.with(format.contentType), body: Array(Self.render(table, format).utf8))
        }
    }

    func funnel(_ request: HTTPRequest) -> HTTPResponse {
        answer {
            let parameters = try LogQueryParameters.read(
                request.queryItems, extra: ["by"],
                refused: ["kind": "cannot be used with the funnel, which counts fixed kinds (fallback views, page events, app_open)"]
            ).get()
            let format = try ExportFormat.negotiate(request, format: parameters.values["format"]).get()
            let filter = try parameters.filter(now: LogRecord.currentTimeMilliseconds(), maximumLimit: Self.maximumGroups).get()
            var dimension: FunnelDimension?
            if let byText = parameters.values["by"] {
                guard let chosen = FunnelDimension(rawValue: byText) else {
                    throw HTTPProblem.badParameter(
                        "by", "\"\(byText)\" is not a funnel dimension; allowed: \(FunnelDimension.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                dimension = chosen
            }
            let table = ResultTable(funnel: try openReader().funnel(by: dimension, filter), dimension: dimension, percentages: false)
            return HTTPResponse(status: 200, headers: AdminHeaders.with(format.contentType), body: Array(Self.render(table, format).utf8))
        }
    }

    /// A reader on the log, or the reason there is none.
    func openReader() throws -> LogReader {
        guard let database else { throw HTTPProblem.logUnavailable("the hit log is off (log.enabled is false)") }
        do {
            return try LogReader(database: database)
        } catch LogError.databaseMissing {
            throw HTTPProblem.logUnavailable("there is no log yet: it is made when the server first answers a request")
        }
    }

    /// Runs `body`; an `HTTPProblem` becomes its JSON answer, anything else a 500 that says only that
    /// the log could not be read (the cause goes to the server's log, not to the client).
    private func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let problem as HTTPProblem {
            return problem.response()
        } catch {
            logger.error("admin API: reading the log failed: \(error)")
            return HTTPProblem.internalError.response()
        }
    }

    private func streamAll(_ reader: LogReader, filter: LogFilter, columns: [HitColumn], format: ExportFormat) -> HTTPResponse {
        let tableColumns = ResultTable(hits: [], columns: columns).columns
        var cursor = filter.before
        var headerPending = format == .csv
        var finished = false
        let logger = logger
        let stream = HTTPBodyStream(next: {
            guard !finished else { return nil }
            var page = filter
            page.limit = Self.streamChunk
            page.before = cursor
            let rows: [LogRow]
            do {
                rows = try reader.rows(page)
            } catch {
                logger.error("admin API: an export stopped: \(error)")
                throw error
            }
            var text = headerPending ? CSVFormatter().header(tableColumns) : ""
            headerPending = false
            for row in rows {
                let cells = columns.map { $0.value(in: row) }
                text += format == .csv ? CSVFormatter().line(cells, columns: tableColumns) : JSONFormatter().object(cells, columns: tableColumns) + "\n"
            }
            if rows.count < Self.streamChunk { finished = true } else { cursor = LogCursor(after: rows[rows.count - 1]) }
            return Array(text.utf8)
        })
        var headers = AdminHeaders.with(format.contentType)
        if format == .csv { headers.set("Content-Disposition", "attachment; filename=\"linkhost-hits.csv\"") }
        return HTTPResponse(status: 200, headers: headers, stream: stream)
    }

    static func render(_ table: ResultTable, _ format: ExportFormat) -> String {
        switch format {
        case .json: return JSONFormatter().format(table)
        case .csv: return CSVFormatter().format(table)
        case .ndjson: return table.rows.map { JSONFormatter().object($0, columns: table.columns) + "\n" }.joined()
        }
    }

    /// A cursor from its text, `<ms>.<id>` with at most 18 digits in each part: every such number
    /// fits in 64 bits, so the OpenAPI document's pattern says exactly what is taken.
    static func cursor(_ text: String) -> LogCursor? {
        guard text.split(separator: ".").allSatisfy({ $0.utf8.count <= 18 }) else { return nil }
        return LogCursor(text: text)
    }

    static func columns(_ list: String?) throws -> [HitColumn] {
        guard let list else { return HitColumn.fullDefault }
        return try list.split(separator: ",", omittingEmptySubsequences: false).map { name in
            guard let column = HitColumn(rawValue: String(name)) else {
                throw HTTPProblem.badParameter("columns", "\"\(name)\" is not a column; allowed: \(HitColumn.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return column
        }
    }

    /// This request's URL with `cursor` set to `cursor` (path-relative, so it works behind any host).
    private static func nextURL(_ request: HTTPRequest, _ parameters: LogQueryParameters, cursor: LogCursor) -> String {
        var values = parameters.values
        values["cursor"] = cursor.text
        let allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(0x80)))
            .union(CharacterSet(charactersIn: "-._~:"))
        let query = values.keys.sorted().map { name in
            "\(name)=\(values[name]!.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        return request.path + "?" + query.joined(separator: "&")
    }
}
