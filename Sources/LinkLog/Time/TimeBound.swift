/// Reads the times given to `--since` and `--until`: a span back from now (`30m`, `24h`, `7d`,
/// `2w`), a UTC day (`2026-11-01`, meaning its midnight) or a UTC instant (`2026-11-01T10:00:00Z`,
/// seconds optional, fraction allowed). Results are UTC milliseconds since 1970, as in the log.
public enum TimeBound {
    /// The accepted forms, for help texts and error messages.
    public static let acceptedForms: [String] = [
        "a span back from now (30m, 24h, 7d, 2w; also s)",
        "a UTC date (2026-11-01)",
        "a UTC time (2026-11-01T10:00:00Z)",
    ]

    /// `text` as UTC milliseconds since 1970, spans counted back from `now` (also milliseconds).
    public static func parse(_ text: String, now: Int64) throws(TimeBoundError) -> Int64 {
        let bytes = Array(text.utf8)
        if let span = spanMilliseconds(bytes) { return now - span }
        if let instant = instantMilliseconds(bytes) { return instant }
        throw TimeBoundError(text: text)
    }

    /// `<digits><unit>`; `nil` if not that shape (or absurdly large).
    private static func spanMilliseconds(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 2, bytes.count <= 10, let unit = bytes.last else { return nil }
        let unitMilliseconds: Int64
        switch unit {
        case UInt8(ascii: "s"): unitMilliseconds = 1000
        case UInt8(ascii: "m"): unitMilliseconds = 60_000
        case UInt8(ascii: "h"): unitMilliseconds = 3_600_000
        case UInt8(ascii: "d"): unitMilliseconds = 86_400_000
        case UInt8(ascii: "w"): unitMilliseconds = 604_800_000
        default: return nil
        }
        guard let count = number(bytes.dropLast()) else { return nil }
        return Int64(count) * unitMilliseconds
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff…]]Z`; `nil` if not that shape or not a real date.
    private static func instantMilliseconds(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            (1...12).contains(month), (1...UTCCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        let midnight = UTCCalendar.daysSinceEpoch(year: year, month: month, day: day) * UTCCalendar.millisecondsPerDay
        if bytes.count == 10 { return midnight }

        // The time of day: "THH:MM", then optionally ":SS" and ".fraction", then "Z".
        guard bytes.count >= 17, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes.last == UInt8(ascii: "Z"),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), hour < 24, minute < 60
        else { return nil }
        var milliseconds = Int64(hour) * 3_600_000 + Int64(minute) * 60_000
        var rest = bytes[16..<(bytes.count - 1)]
        if !rest.isEmpty {
            guard rest.count >= 3, rest.first == UInt8(ascii: ":"),
                let second = number(rest.dropFirst().prefix(2)), second < 60
            else { return nil }
            milliseconds += Int64(second) * 1000
            rest = rest.dropFirst(3)
        }
        if !rest.isEmpty {
            // A fraction of a second: any number of digits, kept to milliseconds.
            guard rest.count >= 2, rest.first == UInt8(ascii: "."), number(rest.dropFirst()) != nil else { return nil }
            let digits = Array(rest.dropFirst().prefix(3)) + Array(repeating: UInt8(ascii: "0"), count: max(0, 4 - rest.count))
            milliseconds += Int64(number(digits[...])!)
        }
        return midnight + milliseconds
    }

    /// ASCII digits as a number; `nil` for anything else, including an empty run.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}

/// Text that `TimeBound.parse` could not read as a time; its description lists the forms it accepts.
public struct TimeBoundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let text: String

    /// An error for `text`.
    public init(text: String) {
        self.text = text
    }

    public var description: String {
        "cannot read \"\(text)\" as a time: use \(TimeBound.acceptedForms.joined(separator: ", "))"
    }
}
