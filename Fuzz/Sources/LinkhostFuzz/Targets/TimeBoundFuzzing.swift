import Foundation
import LinkLog

/// Time bounds (`--since`, `since=` in the admin API, a report's `openedAt`): a span is counted back
/// from now whatever now is, and an instant written back as `YYYY-MM-DDTHH:MM:SS.mmmZ` (from
/// Foundation's calendar, a second path) reads as the same millisecond.
enum TimeBoundFuzzing {
    static let target = FuzzTarget(
        name: "time-bound",
        summary: "TimeBound spans and instants; instants written back through Foundation's calendar read the same",
        maximumLength: 256,
        run: run
    )

    static let now: Int64 = 1_790_000_000_123
    /// 1600-01-01T00:00:00Z: from here on both calendars agree.
    static let gregorianOnly: Int64 = -11_676_096_000_000

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = try? TimeBound.parse(text, now: now) else {
            FuzzReport.check((try? TimeBound.parse(text, now: 0)) == nil, "\(FuzzReport.shown(text)) parses only for some now")
            return
        }
        guard let other = try? TimeBound.parse(text, now: 86_400_000) else { FuzzReport.fail("\(FuzzReport.shown(text)) parses only for some now") }
        let isSpan = value - other == now - 86_400_000
        if isSpan {
            FuzzReport.check(value <= now, "the span \(FuzzReport.shown(text)) lies in the future")
            return
        }
        FuzzReport.check(value == other, "the instant \(FuzzReport.shown(text)) depends on now: \(value) and \(other)")
        // Foundation's Gregorian calendar is Julian before October 1582; TimeBound's is proleptic.
        guard value >= gregorianOnly else { return }
        let seconds = value >= 0 ? value / 1000 : (value - 999) / 1000
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        let written =
            digits(parts.year, 4) + "-" + digits(parts.month, 2) + "-" + digits(parts.day, 2) + "T" + digits(parts.hour, 2) + ":"
            + digits(parts.minute, 2) + ":" + digits(parts.second, 2) + "." + digits(Int(value - seconds * 1000), 3) + "Z"
        guard let back = try? TimeBound.parse(written, now: now) else {
            FuzzReport.fail("\(FuzzReport.shown(text)) is \(value) ms, written \(written), which does not read back")
        }
        FuzzReport.check(back == value, "\(FuzzReport.shown(text)) is \(value) ms, written \(written), read back as \(back)")
    }

    /// Foundation's UTC Gregorian calendar: the second path from milliseconds to a date.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func digits(_ number: Int?, _ width: Int) -> String {
        let text = String(number ?? -1)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
