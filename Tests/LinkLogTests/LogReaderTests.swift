import LinkLog
import LinkLogSQLite
import Testing

@Suite("Log reader")
struct LogReaderTests {
    static let day: Int64 = 86_400_000
    static let base = Sample.baseTime

    /// Six hits over three UTC days on two sites, each filter test picks some of them by path.
    static func fill(_ fixture: LogFixture) throws {
        try fixture.write([
            Sample.record(at: base, path: "/1", rule: "addfriend", utmSource: "newsletter", utmMedium: "email", utmCampaign: "spring", clientClass: "ios"),
            Sample.record(at: base + 1000, path: "/2", rule: "joingroup", utmSource: "newsletter", utmCampaign: "autumn", clientClass: "android"),
            Sample.record(at: base + 2000, path: "/3", kind: "aasa", rule: nil, clientClass: "aasa-bot"),
            Sample.record(
                at: base + day, site: "awful", host: "forums.somethingawful.com", path: "/4", rule: "thread", utmSource: "twitter", clientClass: "desktop"),
            Sample.record(
                at: base + day + 1000, site: "awful", host: "forums.somethingawful.com", path: "/5", kind: "not_found", rule: nil, status: 404,
                clientClass: "bot"),
            Sample.record(at: base - day, path: "/6", kind: "bad_link", rule: "addfriend", status: 400, clientClass: "ios"),
        ])
    }

    static let filters: [(LogFilter, [String])] = [
        (LogFilter(), ["/5", "/4", "/3", "/2", "/1", "/6"]),
        (LogFilter(since: base, until: base + day), ["/3", "/2", "/1"]),
        (LogFilter(since: base + 1000), ["/5", "/4", "/3", "/2"]),
        (LogFilter(until: base), ["/6"]),
        (LogFilter(host: "forums.somethingawful.com"), ["/5", "/4"]),
        (LogFilter(rule: "addfriend"), ["/1", "/6"]),
        (LogFilter(kind: "fallback"), ["/4", "/2", "/1"]),
        (LogFilter(site: "awful"), ["/5", "/4"]),
        (LogFilter(utmSource: "newsletter"), ["/2", "/1"]),
        (LogFilter(utmMedium: "email"), ["/1"]),
        (LogFilter(utmCampaign: "autumn"), ["/2"]),
        (LogFilter(clientClass: "ios"), ["/1", "/6"]),
        (LogFilter(limit: 2), ["/5", "/4"]),
        (LogFilter(kind: "fallback", site: "rowhni"), ["/2", "/1"]),
        (LogFilter(host: "nobody.example"), []),
    ]

    @Test("filters pick exactly their rows, newest first", arguments: filters)
    func rows(filter: LogFilter, expected: [String]) throws {
        let fixture = try LogFixture()
        try Self.fill(fixture)
        let reader = try fixture.reader()
        #expect(try reader.rows(filter).map(\.path) == expected)
        // `count` sees the same rows but ignores the limit.
        var unlimited = filter
        unlimited.limit = nil
        #expect(try reader.count(filter) == reader.rows(unlimited).count)
    }

    static let statistics: [(StatsDimension, [StatsRow])] = [
        (.rule, [StatsRow(key: nil, hits: 2), StatsRow(key: "addfriend", hits: 2), StatsRow(key: "joingroup", hits: 1), StatsRow(key: "thread", hits: 1)]),
        (.kind, [StatsRow(key: "fallback", hits: 3), StatsRow(key: "aasa", hits: 1), StatsRow(key: "bad_link", hits: 1), StatsRow(key: "not_found", hits: 1)]),
        (.host, [StatsRow(key: "rowhni.com", hits: 4), StatsRow(key: "forums.somethingawful.com", hits: 2)]),
        (
            .client,
            [
                StatsRow(key: "ios", hits: 2), StatsRow(key: "aasa-bot", hits: 1), StatsRow(key: "android", hits: 1), StatsRow(key: "bot", hits: 1),
                StatsRow(key: "desktop", hits: 1),
            ]
        ),
        (.utmSource, [StatsRow(key: nil, hits: 3), StatsRow(key: "newsletter", hits: 2), StatsRow(key: "twitter", hits: 1)]),
        (.utmMedium, [StatsRow(key: nil, hits: 5), StatsRow(key: "email", hits: 1)]),
        (.utmCampaign, [StatsRow(key: nil, hits: 4), StatsRow(key: "autumn", hits: 1), StatsRow(key: "spring", hits: 1)]),
        (.day, [StatsRow(key: "2026-10-31", hits: 1), StatsRow(key: "2026-11-01", hits: 3), StatsRow(key: "2026-11-02", hits: 2)]),
        (.site, [StatsRow(key: "rowhni", hits: 4), StatsRow(key: "awful", hits: 2)]),
        (.status, [StatsRow(key: "200", hits: 4), StatsRow(key: "400", hits: 1), StatsRow(key: "404", hits: 1)]),
    ]

    @Test("statistics per dimension: busiest first, days in date order", arguments: statistics)
    func stats(dimension: StatsDimension, expected: [StatsRow]) throws {
        let fixture = try LogFixture()
        try Self.fill(fixture)
        #expect(try fixture.reader().stats(by: dimension) == expected)
    }

    @Test("statistics honour the filter and its limit")
    func filteredStats() throws {
        let fixture = try LogFixture()
        try Self.fill(fixture)
        let reader = try fixture.reader()
        #expect(try reader.stats(by: .utmSource, LogFilter(kind: "fallback")) == [StatsRow(key: "newsletter", hits: 2), StatsRow(key: "twitter", hits: 1)])
        #expect(try reader.stats(by: .kind, LogFilter(limit: 1)) == [StatsRow(key: "fallback", hits: 3)])
        #expect(try reader.stats(by: .day, LogFilter(since: Self.base)) == [StatsRow(key: "2026-11-01", hits: 3), StatsRow(key: "2026-11-02", hits: 2)])
    }

    @Test("the reader reads while a writer is running")
    func readsDuringWrites() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        writer.enqueue(Sample.record())
        #expect(writer.drain())
        let reader = try fixture.reader()
        #expect(try reader.count() == 1)
        writer.enqueue(Sample.record())
        #expect(writer.drain())
        #expect(try reader.count() == 2)
        writer.stop()
    }

    @Test("dimension and format names are listed for the CLI")
    func names() {
        #expect(
            StatsDimension.allCases.map(\.rawValue) == [
                "rule", "kind", "host", "client", "utm_source", "utm_medium", "utm_campaign", "day", "site", "status", "in_app", "referrer_host",
                "preview_app",
            ])
        #expect(OutputFormat.allCases.map(\.rawValue) == ["table", "json", "csv"])
        #expect(HitColumn(rawValue: "user_agent")?.rawValue == "user_agent")
    }
}
