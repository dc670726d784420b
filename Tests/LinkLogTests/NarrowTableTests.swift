import LinkLog
import Testing

/// A terminal too narrow for a table's headers (each needs 6 characters, `opens…`) gets
/// records, one field a line, not a table of `ut… vi… op…`.
@Suite("Tables in narrow terminals")
struct NarrowTableTests {
    static let funnel = ResultTable(
        columns: [
            .init(name: "utm_campaign"), .init(name: "views", isNumeric: true), .init(name: "open_app", isNumeric: true),
            .init(name: "app_opens", isNumeric: true), .init(name: "opens_after_view", isNumeric: true), .init(name: "open_rate"),
        ],
        rows: [["spring-launch-2026", "1200", "300", "150", "90", "7.5%"], [nil, "4", "0", "1", "0", "0.0%"]])

    @Test func aTableThatCannotKeepItsHeadersBecomesRecords() {
        let text = TableFormatter(width: 40).format(Self.funnel)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(text)")
        #expect(!text.contains("…"), "every header and value fits whole:\n\(text)")
        #expect(lines.first == "utm_campaign      spring-launch-2026")
        #expect(lines.contains("opens_after_view  90"))
        #expect(lines.contains(""), "a blank line between records")
        #expect(lines.count == 2 * 6 + 1)
    }

    @Test func aTableThatFitsStaysATableWithHeadersCutNoShorterThanSix() {
        let text = TableFormatter(width: 120).format(Self.funnel)
        #expect(text.hasPrefix("utm_campaign        views  open_app  app_opens  opens_after_view  open_rate\n"), "\(text)")
        let tight = TableFormatter(width: 60).format(Self.funnel)
        #expect(tight.split(separator: "\n").count == 4, "\(tight)")
        #expect(tight.split(separator: "\n").allSatisfy { $0.count <= 60 }, "\(tight)")
        #expect(tight.hasPrefix("utm_c…"), "\(tight)")
        #expect(!tight.contains("ut…"), "\(tight)")
    }

    @Test func veryNarrowRecordsCutLongValuesNotNames() {
        let text = TableFormatter(width: 30).format(Self.funnel)
        for line in text.split(separator: "\n") { #expect(line.count <= 30, "\(line)") }
        #expect(!text.contains("views  open"), "records, not a table")
        #expect(text.hasPrefix("utm_campaign     spring-launc…\n"), "\(text)")
        #expect(text.contains("opens_after_vi…  90"), "a name longer than half the width is cut too")
    }
}

extension NarrowTableTests {
    /// Cutting must not make two headers alike: `open_…` could be `open_clicks` or
    /// `open_click_rate`. The funnel's fifteen columns in a 120-column terminal are records.
    @Test func headersCutAlikeMakeRecords() {
        let rows = [FunnelRow(key: "spring", views: 8, openClicks: 2, storeClicks: 1, copies: 1, appOpens: 0, opensAfterView: 3, bypassOpens: 2, installs: 1)]
        let text = TableFormatter(width: 120).format(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: true))
        #expect(text.hasPrefix("utm_campaign           spring\nviews                  8\n"), "\(text)")
        #expect(text.contains("bypass_rate            25.0%"), "\(text)")
        let wide = TableFormatter(width: 240).format(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: true))
        #expect(wide.hasPrefix("utm_campaign  views  open_clicks"), "a terminal wide enough keeps the table: \(wide)")
    }
}
