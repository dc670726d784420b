/// The dashboard's time series as inline SVG, drawn on the server: no script, no external resource,
/// and every text in it escaped for XML. Colours come from classes in the admin stylesheet (the
/// page's policy allows no inline style). Each day has a bar per series, and a transparent column carrying a `<title>` with
/// its three counts, which browsers show as a tooltip without JavaScript.
///
/// SVG text scales with the drawing, so one drawing cannot be legible on a phone and on a desktop:
/// the page carries one per `Size` and the stylesheet shows the one meant for the viewport.
struct DashboardChart {
    struct Series {
        /// The class suffix (`views`, `opens`, `aasa`) and the text in tooltips.
        let name: String
        let label: String
        /// One count per day, in `days` order.
        let counts: [Int]
    }

    /// One drawing, in user units that are about CSS pixels at the widths it is shown at.
    struct Size: Sendable {
        /// The `data-size` the stylesheet shows it by (`narrow`, …).
        let name: String
        let width: Int
        let height: Int
        /// Horizontal grid lines above zero.
        let gridSteps: Int
        /// Shown below 40rem (a phone), from 40rem to 62.5rem (a tablet or narrow window), and above.
        static let narrow = Size(name: "narrow", width: 360, height: 220, gridSteps: 2)
        static let medium = Size(name: "medium", width: 640, height: 240, gridSteps: 4)
        static let wide = Size(name: "wide", width: 1100, height: 260, gridSteps: 4)
        static let all = [narrow, medium, wide]
    }

    /// ISO dates (`2026-11-01`), one per point: the tooltips show them whole, the axis shows the
    /// day of the month with the month's name below the first labelled day of each month.
    let days: [String]
    /// January to December in the page's language.
    let monthNames: [String]
    let series: [Series]
    let title: String
    /// A count as the page writes it (`1,000`, `1.000`).
    let countText: (Int) -> String

    static let fontSize = 12.0
    /// A generous average advance of a digit or letter of the page's sans-serif font, in ems.
    static let characterWidth = 0.62
    static let right = 12
    static let top = 10
    static let bottom = 40

    /// Every size, one after the other (the stylesheet shows one).
    func svg() -> String {
        Size.all.map(svg).joined()
    }

    func svg(_ size: Size) -> String {
        let maximum = Self.niceCeiling(series.flatMap(\.counts).max() ?? 0, steps: size.gridSteps)
        let left = Int((Double(countText(maximum).count) * Self.characterWidth * Self.fontSize).rounded(.up)) + 10
        let plotWidth = Double(size.width - left - Self.right)
        let plotHeight = Double(size.height - Self.top - Self.bottom)
        let baseline = Double(Self.top) + plotHeight
        // Each day owns an equal slot; its point sits in the middle, so the first and last days are
        // not squeezed against the axes and their labels have the same room as the others.
        let slot = plotWidth / Double(max(days.count, 1))
        func x(_ index: Int) -> Double { Double(left) + slot * (Double(index) + 0.5) }
        func y(_ count: Int) -> Double { Double(Self.top) + plotHeight * (1 - Double(count) / Double(maximum)) }

        var out =
            "<svg class=\"chart\" data-size=\"\(size.name)\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size.width) \(size.height)\" role=\"img\" aria-label=\"\(Self.escape(title))\">"
        out += "<title>\(Self.escape(title))</title>"
        for step in 0...size.gridSteps {
            let value = maximum * step / size.gridSteps
            let lineY = Self.number(y(value))
            out += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(size.width - Self.right)\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
            out +=
                "<text class=\"value\" x=\"\(left - 6)\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Self.escape(countText(value)))</text>"
        }
        // A tick under every day, so a day without a label still shows that it is there.
        let dayNumbers = days.map { $0.split(separator: "-").last.flatMap { Int($0) }.map(String.init) ?? $0 }
        let labelled = Self.labelledIndexes(days.count, capacity: Self.labelCapacity(labels: dayNumbers, slot: slot))
        let labelledSet = Set(labelled)
        if slot >= 3 {
            for index in days.indices {
                let tickX = Self.number(x(index))
                let length = labelledSet.contains(index) ? 5.0 : 3.0
                out +=
                    "<line class=\"tick\" x1=\"\(tickX)\" x2=\"\(tickX)\" y1=\"\(Self.number(baseline))\" y2=\"\(Self.number(baseline + length))\"/>"
            }
        }
        for index in labelled {
            out +=
                "<text class=\"day\" x=\"\(Self.number(x(index)))\" y=\"\(Self.number(baseline + 18))\" text-anchor=\"middle\">\(Self.escape(dayNumbers[index]))</text>"
        }
        for (index, name) in monthLabels(labelled, slot: slot) {
            // Centred under its day, but kept inside the drawing near either edge.
            let half = Double(name.count) * Self.characterWidth * Self.fontSize / 2
            let (textX, anchor) =
                x(index) - half < 2 ? (2, "start") : x(index) + half > Double(size.width - 2) ? (Double(size.width - 2), "end") : (x(index), "middle")
            out +=
                "<text class=\"month\" x=\"\(Self.number(textX))\" y=\"\(Self.number(baseline + 33))\" text-anchor=\"\(anchor)\">\(Self.escape(name))</text>"
        }
        // Bars, the series side by side in each day's slot: a line drawn from a day without traffic to
        // the next one with some slants across days that had none, so one busy day read as a week.
        let barWidth = slot * 0.8 / Double(max(series.count, 1))
        for (position, line) in series.enumerated() {
            out += "<g class=\"series series-\(Self.escape(line.name))\">"
            for (index, count) in line.counts.enumerated() where count > 0 {
                let barX = x(index) - slot * 0.4 + barWidth * Double(position)
                out +=
                    "<rect class=\"bar\" x=\"\(Self.number(barX))\" y=\"\(Self.number(y(count)))\" width=\"\(Self.number(barWidth))\" height=\"\(Self.number(baseline - y(count)))\"/>"
            }
            out += "</g>"
        }
        for index in days.indices {
            let counts = series.map { "\(countText($0.counts[index])) \($0.label)" }.joined(separator: " · ")
            out +=
                "<rect class=\"hover\" x=\"\(Self.number(x(index) - slot / 2))\" y=\"\(Self.top)\" width=\"\(Self.number(slot))\" height=\"\(Self.number(plotHeight))\"><title>\(Self.escape(days[index])): \(Self.escape(counts))</title></rect>"
        }
        return out + "</svg>"
    }

    /// The month's name under the first labelled day of each month; where two would touch (the
    /// range starts on a month's last days), the later month keeps its name.
    func monthLabels(_ labelled: [Int], slot: Double) -> [(index: Int, name: String)] {
        var placed: [(index: Int, name: String)] = []
        var lastMonth = ""
        for index in labelled {
            let month = String(days[index].dropLast(3))
            guard month != lastMonth else { continue }
            lastMonth = month
            let number = Int(month.split(separator: "-").last ?? "") ?? 0
            let name = monthNames.indices.contains(number - 1) ? monthNames[number - 1] : month
            if let previous = placed.last,
                Double(index - previous.index) * slot < Double(max(previous.name.count, name.count)) * Self.characterWidth * Self.fontSize + 8
            {
                placed.removeLast()
            }
            placed.append((index, name))
        }
        return placed
    }

    /// How many day labels fit side by side in slots `slot` wide, the longest label deciding.
    static func labelCapacity(labels: [String], slot: Double) -> Int {
        let widest = Double(labels.map(\.count).max() ?? 0) * characterWidth * fontSize + 8
        return max(1, Int(slot * Double(labels.count) / widest))
    }

    /// The top of the scale: `steps` grid steps of 1 to 5 for small counts, else of 1, 2, 2.5 or 5
    /// times a power of ten, the smallest that reaches `value`; at least `steps`, so an empty chart
    /// has a scale.
    static func niceCeiling(_ value: Int, steps: Int = 4) -> Int {
        var power = 1
        while true {
            let candidates = power == 1 ? [1, 2, 3, 4, 5] : [power, 2 * power, power * 5 / 2, 5 * power]
            for step in candidates where step * steps >= value {
                return step * steps
            }
            power *= 10
        }
    }

    /// The days that get a label when `capacity` labels fit: every day when all fit; otherwise every
    /// `step`-th day counted back from the last, so the spacing is even and today is always labelled.
    /// Steps are 2 or 3 days, then whole weeks, so a long range is labelled on one weekday.
    static func labelledIndexes(_ count: Int, capacity: Int) -> [Int] {
        guard count > 0 else { return [] }
        var step = 1
        while (count + step - 1) / step > max(capacity, 1) {
            step = step < 3 ? step + 1 : step < 7 ? 7 : step + 7
        }
        return stride(from: count - 1, through: 0, by: -step).reversed()
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
