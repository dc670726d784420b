import LinkLogSQLite
import OrderedJSON
import Testing

@testable import LinkLog

/// What is derived from `HitTable`'s one list of columns: the listing's columns and their looks, the
/// record's values by column and back, reading a row, capping and the UTM parameters.
@Suite("Hit table")
struct HitTableTests {
    /// A record with a different value in every field.
    static let everyField = LogRecord(
        timestampMilliseconds: 1_793_527_200_123, siteID: "site-1", host: "host-2", method: "PUT", path: "/path-3", kind: "kind-4", rule: "rule-5",
        status: 206, durationMicroseconds: 77, utmSource: "source-6", utmMedium: "medium-7", utmCampaign: "campaign-8", utmTerm: "term-9",
        utmContent: "content-10", trackedParameters: [("from", "qrcode"), ("n", "11")], referrer: "referrer-12", userAgent: "agent-13",
        clientClass: "class-14", clientAddress: "address-15", event: "event-16", secretToken: "secret-17", query: "query-18",
        viewToken: "view-19", inApp: "app-20", referrerHost: "referrer-21")

    @Test("a listing offers the columns it always did, in the same order, with the same looks")
    func listingColumns() {
        let expected: [(name: String, giveWay: ResultTable.GiveWay, isNumeric: Bool)] = [
            ("id", .never, true), ("time", .never, false), ("ts_ms", .never, true), ("site", .last, false), ("host", .late, false),
            ("method", .last, false), ("path", .normal, false), ("query", .late, false), ("kind", .last, false), ("rule", .late, false),
            ("status", .never, true),
            ("duration_us", .never, true), ("utm_source", .normal, false), ("utm_medium", .normal, false), ("utm_campaign", .normal, false),
            ("utm_term", .normal, false), ("utm_content", .normal, false), ("params", .first, false), ("referrer", .first, false),
            ("referrer_host", .normal, false), ("user_agent", .first, false), ("client_class", .last, false), ("in_app", .last, false),
            ("client_addr", .normal, false), ("event", .last, false), ("secret", .normal, false), ("view_token", .normal, false),
        ]
        #expect(HitColumn.allCases.map(\.rawValue) == expected.map(\.name))
        #expect(HitColumn.allCases.map(\.giveWay) == expected.map(\.giveWay))
        #expect(HitColumn.allCases.map(\.isNumeric) == expected.map(\.isNumeric))
        #expect(HitColumn.tableDefault.map(\.rawValue) == ["time", "site", "kind", "rule", "status", "path", "utm_source", "utm_campaign", "client_class"])
        // The columns added after the first listings are shown when named, so listings keep their columns.
        let onRequest: Set = ["secret", "query", "referrer_host", "in_app", "view_token"]
        #expect(HitColumn.fullDefault.map(\.rawValue) == expected.map(\.name).filter { !onRequest.contains($0) })
        #expect(HitColumn(rawValue: "view_id") == nil)
        #expect(HitColumn(rawValue: "secretToken") == nil)
    }

    @Test("every column of a written row reads its own field")
    func columnsReadTheirFields() throws {
        let fixture = try LogFixture()
        try fixture.write([Self.everyField])
        let row = try #require(try fixture.reader().rows().first)
        let expected: [String: String?] = [
            "id": "1", "time": "2026-11-01T10:00:00.123Z", "ts_ms": "1793527200123", "site": "site-1", "host": "host-2", "method": "PUT",
            "path": "/path-3", "kind": "kind-4", "rule": "rule-5", "status": "206", "duration_us": "77", "utm_source": "source-6",
            "utm_medium": "medium-7", "utm_campaign": "campaign-8", "utm_term": "term-9", "utm_content": "content-10",
            "params": #"{"from":"qrcode","n":"11"}"#, "referrer": "referrer-12", "user_agent": "agent-13", "client_class": "class-14",
            "client_addr": "address-15", "event": "event-16", "secret": "secret-17", "query": "query-18", "view_token": "view-19",
            "in_app": "app-20", "referrer_host": "referrer-21",
        ]
        for column in HitColumn.allCases {
            #expect(column.value(in: row) == expected[column.rawValue] ?? "missing", "\(column.rawValue)")
        }
        #expect(row.utmContent == "content-10")
        #expect(row.secret == "secret-17")
        #expect(row.trackedParameters.map { "\($0.name)=\($0.value)" } == ["from=qrcode", "n=11"])
    }

    @Test("a record's column values give the record back; NULLs and missing values read as empty")
    func columnValuesRoundTrip() {
        let values = Self.everyField.columnValues
        #expect(values.count == HitTable.recordColumns.count)
        #expect(zip(HitTable.recordColumns.map(\.name), values).first { $0.0 == "utm_content" }?.1 == .text("content-10"))
        let back = LogRecord(columnValues: values)
        #expect(back.columnValues == values)
        #expect(back.trackedParameters.map(\.value) == ["qrcode", "11"])

        let empty = LogRecord(columnValues: [.integer(5)])
        #expect(empty.timestampMilliseconds == 5)
        #expect(empty.host.isEmpty && empty.siteID == nil && empty.status == 0 && empty.trackedParameters.isEmpty)
        #expect(LogRecord(columnValues: values.map { _ in .null }).columnValues == LogRecord(columnValues: []).columnValues)
    }

    @Test("capping reaches every text of a record, and nothing else")
    func cappingReachesEveryText() {
        var record = Self.everyField
        record.capText(to: 3)
        let capped = record.columnValues
        for (column, value) in zip(HitTable.recordColumns, capped) {
            guard case .text(let text) = value, column.name != "params" else { continue }
            #expect(text.utf8.count == 3, "\(column.name): \(text)")
        }
        #expect(record.timestampMilliseconds == Self.everyField.timestampMilliseconds && record.status == 206)
        #expect(record.utmContent == "con" && record.secretToken == "sec" && record.host == "hos")
        #expect(record.trackedParameters.map { "\($0.name)=\($0.value)" } == ["fro=qrc", "n=11"])
    }

    @Test("each UTM parameter fills its own column, first value kept")
    func utmParameters() {
        #expect(LogRecord.utmParameterNames == ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"])
        var record = LogRecord(
            timestampMilliseconds: 0, siteID: nil, host: "h", method: "GET", path: "/", kind: "fallback", status: 200, durationMicroseconds: 1)
        record.takeParameters(
            from: [("utm_content", "c"), ("utm_term", "t"), ("utm_campaign", "ca"), ("utm_medium", "m"), ("utm_source", "s"), ("utm_content", "later")],
            tracked: ["utm_content"])
        #expect([record.utmSource, record.utmMedium, record.utmCampaign, record.utmTerm, record.utmContent] == ["s", "m", "ca", "t", "c"])
        #expect(record.trackedParameters.isEmpty)
    }

    @Test("the declaration holds together: unique names, a type for each field, indexes on real columns")
    func declaration() {
        let names = HitTable.columns.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(HitTable.rowColumns.first?.field == .rowID)
        #expect(HitTable.recordColumns.count == 25)
        #expect(HitTable.columns.filter { !$0.field.isOnRecord }.map(\.name) == ["id", "view_id", "preview_app"])
        for index in HitTable.indexes {
            #expect(index.columns.allSatisfy(names.contains), "\(index.name)")
        }
        #expect(HitTable.columns.allSatisfy { $0.since >= 1 && $0.since <= SQLiteLogSchema.currentVersion })
    }
}
