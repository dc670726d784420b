import LinkLog
import LinkLogSQLite
import Testing

@Suite("Output formats")
struct OutputFormatTests {
    static let stats = ResultTable(stats: [StatsRow(key: "addfriend", hits: 3), StatsRow(key: nil, hits: 1)], dimension: .rule)

    static let awkward = ResultTable(
        columns: [.init(name: "name"), .init(name: "n", isNumeric: true), .init(name: "note")],
        rows: [
            ["plain", "1", nil],
            ["a,b", "-20", "say \"hi\""],
            ["two\nlines", "x", "tab\there ü"],
        ]
    )

    @Test("JSON: one array, one object per line, numbers bare, null for NULL")
    func json() {
        #expect(
            OutputFormat.json.render(Self.stats) == """
                [
                  {"rule":"addfriend","hits":3},
                  {"rule":"(none)","hits":1}
                ]

                """)
        #expect(
            JSONFormatter().format(Self.awkward) == """
                [
                  {"name":"plain","n":1,"note":null},
                  {"name":"a,b","n":-20,"note":"say \\"hi\\""},
                  {"name":"two\\nlines","n":"x","note":"tab\\there ü"}
                ]

                """)
        #expect(JSONFormatter().format(ResultTable(columns: [.init(name: "a")], rows: [])) == "[]\n")
    }

    @Test("JSON: keys and cells are escaped by the one JSON writer; numeric cells that are integers are bare")
    func jsonEscaping() {
        let table = ResultTable(columns: [.init(name: "a\"b"), .init(name: "n", isNumeric: true)], rows: [["\u{1}\\\u{2028}/", "+7"]])
        #expect(JSONFormatter().format(table) == "[\n  {\"a\\\"b\":\"\\u0001\\\\\u{2028}/\",\"n\":7}\n]\n")
    }

    @Test("CSV: header, RFC 4180 quoting, CRLF line ends")
    func csv() {
        #expect(OutputFormat.csv.render(Self.stats) == "rule,hits\r\naddfriend,3\r\n(none),1\r\n")
        #expect(CSVFormatter().format(Self.awkward) == "name,n,note\r\nplain,1,\r\n\"a,b\",-20,\"say \"\"hi\"\"\"\r\n\"two\nlines\",x,tab\there ü\r\n")
    }

    @Test("table: aligned columns, numbers to the right, no trailing spaces")
    func table() {
        #expect(
            OutputFormat.table.render(Self.stats) == """
                rule       hits
                ---------  ----
                addfriend     3
                (none)        1

                """)
        #expect(
            TableFormatter().format(Self.awkward) == """
                name         n  note
                ---------  ---  ----------
                plain        1
                a,b        -20  say "hi"
                two\u{FFFD}lines    x  tab\u{FFFD}here ü

                """)
    }

    @Test("table: a wide listing fits the width, long cells cut with …", arguments: [40, 80, 120])
    func tableFitsWidth(width: Int) throws {
        let fixture = try LogFixture()
        let userAgent =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
        let longPath = "/showthread.php?threadid=456&pagenumber=2&userid=7&noseen=1&utm_source=newsletter&utm_campaign=spring-launch-2026"
        try fixture.write([
            Sample.record(
                site: "awful", host: "forums.somethingawful.com", path: longPath, rule: "threadPageSingleUser",
                utmSource: "newsletter", utmCampaign: "spring-launch-2026", userAgent: userAgent, clientClass: "ios"),
            Sample.record(kind: "method_not_allowed", rule: nil, userAgent: "AASA-Bot/1.0.0", clientClass: "aasa-bot"),
        ])
        let rows = try fixture.reader().rows()
        let text = OutputFormat.table.render(ResultTable(hits: rows, columns: HitColumn.tableDefault), width: width)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        // At 40 columns the nine headers cannot stay whole: one record per row (NarrowTableTests).
        #expect(lines.count == (width == 40 ? 2 * HitColumn.tableDefault.count + 1 : 4))
        for line in lines { #expect(line.count <= width, "\(line)") }
        #expect(text.contains("…"))
        #expect(!lines.contains { $0.hasSuffix(" ") })
        // Timestamps and numbers give way last: whole wherever the width allows it.
        if width >= 80 {
            #expect(text.contains("2026-11-01T10:00:00.000Z"))
            #expect(lines[2].contains("  200  "))
        }
        if width == 120 {
            // The path and the campaign give way first; the short identifying fields stay whole, and
            // only the longest rule name of the shipped config loses a few characters.
            for whole in ["awful", "rowhni", "method_not_allowed", "fallback", "newsletter", "aasa-bot"] {
                #expect(text.contains(whole), "\(whole) was cut")
            }
            #expect(text.contains("threadPage"))
            #expect(!text.contains(longPath))
            #expect(!text.contains("spring-launch-2026"))
        }
    }

    @Test("table without a width limit keeps every cell whole")
    func tableUnlimited() {
        let long = String(repeating: "x", count: 300)
        let text = TableFormatter(width: nil).format(ResultTable(columns: [.init(name: "a")], rows: [[long]]))
        #expect(text.contains(long))
        #expect(!text.contains("…"))
    }

    /// The listing columns of these names.
    static func hitColumns(_ names: String...) -> [HitColumn] {
        names.compactMap(HitColumn.init(rawValue:))
    }

    @Test("hit listings: all columns but the secret token by default, named as in the database")
    func hitColumns() throws {
        let fixture = try LogFixture()
        try fixture.write([Sample.record(parameters: [("from", "qrcode")], secretToken: "hmac:0123456789abcdef")])
        let table = ResultTable(hits: try fixture.reader().rows())
        #expect(
            table.columns.map(\.name) == [
                "id", "time", "ts_ms", "site", "host", "method", "path", "kind", "rule", "status", "duration_us",
                "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "params", "referrer",
                "user_agent", "client_class", "client_addr", "event",
            ])
        #expect(!OutputFormat.csv.render(table).contains("hmac:"))
        let named = ResultTable(hits: try fixture.reader().rows(), columns: Self.hitColumns("event", "secret"))
        #expect(OutputFormat.csv.render(named) == "event,secret\r\n,hmac:0123456789abcdef\r\n")
        let json = OutputFormat.json.render(
            ResultTable(hits: try fixture.reader().rows(), columns: Self.hitColumns("time", "ts_ms", "status", "params", "referrer")))
        #expect(
            json == """
                [
                  {"time":"2026-11-01T10:00:00.000Z","ts_ms":1793527200000,"status":200,"params":"{\\"from\\":\\"qrcode\\"}","referrer":null}
                ]

                """)
    }
}
