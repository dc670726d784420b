import Foundation

/// Reads a `Retry-After` header: a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`), as RFC 9110 allows both.
enum RetryAfter {
    /// The wait the header asks for, in seconds from `now` (never negative); `nil` when the value
    /// is neither form.
    static func seconds(in value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return TimeInterval(trimmed).map { min($0, 86_400) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
