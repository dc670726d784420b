import Foundation

/// `Retry-After` (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    static func date(from value: String?, now: Date) -> Date? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return now.addingTimeInterval(Double(seconds)) }
        // IMF-fixdate, the form RFC 9110 requires senders to use. A formatter per call: this is
        // rare, and a shared DateFormatter is not documented as safe across threads on Linux.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value)
    }
}
