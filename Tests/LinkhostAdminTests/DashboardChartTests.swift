import Testing

@testable import LinkhostAdmin

/// The chart's drawing, in-process: a day's counts are bars in that day's slot only, so a single
/// busy day does not slant a line across the quiet days around it.
@Suite("Dashboard chart")
struct DashboardChartTests {
    @Test func oneBusyDayIsBarsInItsOwnSlotAndQuietDaysDrawNothing() {
        let days = (1...7).map { "2026-11-0\($0)" }
        let chart = DashboardChart(
            days: days, monthNames: Array(repeating: "Nov", count: 12),
            series: [
                .init(name: "views", label: "views", counts: [0, 0, 0, 40, 0, 0, 0]),
                .init(name: "opens", label: "opens", counts: [0, 0, 0, 10, 0, 0, 0]),
                .init(name: "aasa", label: "fetches", counts: [0, 0, 0, 0, 0, 0, 0]),
            ], title: "Hits per day", countText: String.init)
        let size = DashboardChart.Size.wide
        let svg = chart.svg(size)
        #expect(svg.components(separatedBy: "<g class=\"series ").count - 1 == 3)
        let bars = svg.components(separatedBy: "<rect class=\"bar\" x=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        #expect(bars.count == 2, "a bar for each series with a count that day")
        #expect(!svg.contains("polyline"))
        // Both bars lie in the fourth day's slot, between its hover column's edges.
        let hovers = svg.components(separatedBy: "<rect class=\"hover\" x=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        #expect(hovers.count == 7)
        #expect(bars.allSatisfy { $0 >= hovers[3] && $0 < hovers[4] }, "\(bars) \(hovers)")
        // The taller bar is the busier series.
        let heights = svg.components(separatedBy: "\" height=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
        #expect(heights.count >= 2 && heights[0] > heights[1] * 3.5)
    }
}
