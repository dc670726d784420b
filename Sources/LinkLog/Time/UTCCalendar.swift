/// Proleptic Gregorian dates in UTC, by arithmetic: what the reader needs to parse `2026-11-01` and
/// print timestamps, without Foundation's formatters or any time zone database.
package enum UTCCalendar {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// Days from 1970-01-01 to the given date. Works in 400-year eras, the period after which the
    /// Gregorian calendar repeats; years are shifted to start in March so the leap day comes last.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 719,468 days separate 0000-03-01 from 1970-01-01.
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of `daysSinceEpoch`).
    static func date(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// `2026-11-01T10:00:00.123Z` for a millisecond timestamp.
    package static func timestampText(milliseconds: Int64) -> String {
        let days = floorDivide(milliseconds, millisecondsPerDay)
        let withinDay = milliseconds - days * millisecondsPerDay
        let seconds = withinDay / 1000
        return dateText(daysSinceEpoch: days)
            + "T" + padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":" + padded(seconds % 60, 2)
            + "." + padded(withinDay % 1000, 3) + "Z"
    }

    /// `2026-11-01` for a day number.
    package static func dateText(daysSinceEpoch days: Int64) -> String {
        let date = date(daysSinceEpoch: days)
        return padded(Int64(date.year), 4) + "-" + padded(Int64(date.month), 2) + "-" + padded(Int64(date.day), 2)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
