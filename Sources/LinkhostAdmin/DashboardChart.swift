/// The dashboard's time series as inline SVG, drawn on the server: no script, no external resource,
/// and every text in it escaped for XML. Colours come from classes in the admin stylesheet (the
/// page's policy allows no inline style); each point carries a `<title>`, which browsers show as a
/// tooltip without JavaScript.
struct DashboardChart {
    struct Series {
        /// The class suffix (`views`, `opens`, `aasa`) and the legend's text.
        let name: String
        let label: String
        /// One count per day, in `days` order.
        let counts: [Int]
    }

    let days: [String]
    let series: [Series]
    let title: String

    static let width = 800
    static let height = 260
    static let left = 56
    static let right = 16
    static let top = 28
    static let bottom = 36

    func svg() -> String {
        let plotWidth = Double(Self.width - Self.left - Self.right)
        let plotHeight = Double(Self.height - Self.top - Self.bottom)
        let maximum = Self.niceCeiling(series.flatMap(\.counts).max() ?? 0)
        func x(_ index: Int) -> Double {
            days.count <= 1 ? Double(Self.left) + plotWidth / 2 : Double(Self.left) + plotWidth * Double(index) / Double(days.count - 1)
        }
        func y(_ count: Int) -> Double { Double(Self.top) + plotHeight * (1 - Double(count) / Double(maximum)) }
        var out =
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Self.width) \(Self.height)\" role=\"img\" aria-label=\"\(Self.escape(title))\">"
        out += "<title>\(Self.escape(title))</title>"
        for step in 0...4 {
            let value = maximum * step / 4
            let lineY = Self.number(y(value))
            out += "<line class=\"grid\" x1=\"\(Self.left)\" x2=\"\(Self.width - Self.right)\" y1=\"\(lineY)\" y2=\"\(lineY)\" stroke-width=\"1\"/>"
            out += "<text x=\"\(Self.left - 6)\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(value)</text>"
        }
        for index in Self.labelledIndexes(days.count) {
            out +=
                "<text x=\"\(Self.number(x(index)))\" y=\"\(Self.height - Self.bottom + 18)\" text-anchor=\"middle\">\(Self.escape(days[index]))</text>"
        }
        for (position, line) in series.enumerated() {
            let points = line.counts.enumerated().map { "\(Self.number(x($0.offset))),\(Self.number(y($0.element)))" }.joined(separator: " ")
            out += "<polyline class=\"series-\(Self.escape(line.name))\" fill=\"none\" stroke-width=\"2\" points=\"\(points)\"/>"
            for (index, count) in line.counts.enumerated() {
                out +=
                    "<circle class=\"series-\(Self.escape(line.name)) legend-\(Self.escape(line.name))\" cx=\"\(Self.number(x(index)))\" cy=\"\(Self.number(y(count)))\" r=\"3\">"
                out += "<title>\(Self.escape(days[index])): \(count) \(Self.escape(line.label))</title></circle>"
            }
            let legendX = Self.left + position * 180
            out += "<rect class=\"legend-\(Self.escape(line.name))\" x=\"\(legendX)\" y=\"6\" width=\"12\" height=\"12\"/>"
            out += "<text x=\"\(legendX + 18)\" y=\"16\">\(Self.escape(line.label))</text>"
        }
        return out + "</svg>"
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least `value` (and at least 4,
    /// so the four grid steps are whole numbers).
    static func niceCeiling(_ value: Int) -> Int {
        guard value > 4 else { return 4 }
        var power = 1
        while power * 10 < value { power *= 10 }
        for factor in [1, 2, 5, 10] where power * factor >= value && (power * factor) % 4 == 0 {
            return power * factor
        }
        return ((value + 3) / 4) * 4
    }

    /// At most seven evenly spread day labels, always the first and the last.
    static func labelledIndexes(_ count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let steps = min(count - 1, 6)
        guard steps > 0 else { return [0] }
        return Array(Set((0...steps).map { $0 * (count - 1) / steps })).sorted()
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Text and attribute values for XML: `& < > " '`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
