import LinkLog
import LinkLogSQLite
import Testing

@Suite("Time bounds")
struct TimeBoundTests {
    static let now: Int64 = 1_793_527_200_000

    static let good: [(String, Int64)] = [
        ("30m", now - 30 * 60_000),
        ("24h", now - 24 * 3_600_000),
        ("7d", now - 7 * 86_400_000),
        ("2w", now - 14 * 86_400_000),
        ("90s", now - 90_000),
        ("0h", now),
        ("2026-11-01", 1_793_491_200_000),
        ("2026-11-01T10:00:00Z", 1_793_527_200_000),
        ("2026-11-01T10:00Z", 1_793_527_200_000),
        ("2026-11-02T08:30:00Z", 1_793_608_200_000),
        ("2026-11-01T10:00:00.25Z", 1_793_527_200_250),
        ("2026-11-01T10:00:00.123456Z", 1_793_527_200_123),
        ("2024-02-29T23:59:59Z", 1_709_251_199_000),
        ("1970-01-01", 0),
        ("1969-12-31T23:59:59Z", -1000),
    ]

    static let bad: [String] = [
        "", "24", "h", "-5h", "5y", "yesterday", "2026-13-01", "2026-02-29", "2026-11-31", "2026-11-01T24:00:00Z",
        "2026-11-01T10:60Z", "2026-11-01T10:00:00", "2026-11-01T10:00:00+02:00", "2026-11-01 10:00:00Z",
        "2026-11-1", "26-11-01", "2026-11-01T10:00:00.Z", "2026-11-01T10:00.5Z", "１h",
    ]

    @Test("spans count back from now; dates and times are UTC", arguments: good)
    func accepted(text: String, expected: Int64) throws {
        #expect(try TimeBound.parse(text, now: Self.now) == expected)
    }

    @Test("anything else is an error that names the accepted forms", arguments: bad)
    func rejected(text: String) {
        let error = #expect(throws: TimeBoundError.self) { try TimeBound.parse(text, now: Self.now) }
        #expect(error?.text == text)
        #expect(error?.description.contains("24h") == true)
        #expect(error?.description.contains("2026-11-01T10:00:00Z") == true)
    }
}
