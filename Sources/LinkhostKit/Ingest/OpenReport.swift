import HTTPServing
import LinkLog
import OrderedJSON

/// The body of `POST /v1/opens`: `{"url": "...", "openedAt": "2026-11-23T10:00:00Z", "source":
/// "universal-link", "view": "…"}`, all but `url` optional. `view` is the view token the app was
/// handed (`lh_view`), when it did not come in `url` itself (an install referrer, say).
struct OpenReport: Sendable, Equatable {
    /// How the app received the link.
    enum Source: String, Sendable, CaseIterable {
        case universalLink = "universal-link"
        case customScheme = "custom-scheme"
        case pasteboard
        /// Google Play's install referrer, read once after an install (Android).
        case installReferrer = "install-referrer"
    }

    let url: String
    /// When the app was opened, UTC milliseconds; `nil` means "now".
    let openedAt: Int64?
    let source: Source?
    /// The `view` field as sent; checked for the shape of a token only when pairing (`ViewToken`).
    var view: String? = nil

    /// Reports may arrive late (an app offline for a while) but not from the future or the distant
    /// past: both would misplace the open in every statistic.
    static let acceptedDelayMilliseconds: Int64 = 7 * 86_400_000
    static let acceptedClockSkewMilliseconds: Int64 = 5 * 60_000

    static let allowedKeys = ["url", "openedAt", "source", "view"]

    /// Reads and checks a body; the problem says which byte or field is wrong.
    static func parse(_ body: [UInt8], now: Int64) -> Result<OpenReport, HTTPProblem> {
        let value: (String) -> JSONValue?
        switch IngestBody.fields(body, allowedKeys: allowedKeys) {
        case .success(let fields): value = fields
        case .failure(let problem): return .failure(problem)
        }
        guard let urlValue = value("url") else { return .failure(.invalidField("\"url\" is missing: send the URL the app was opened with")) }
        guard let url = urlValue.stringValue, !url.isEmpty else { return .failure(.invalidField("\"url\" must be a non-empty string")) }
        var openedAt: Int64?
        if let given = value("openedAt") {
            guard let text = given.stringValue, let milliseconds = instant(text) else {
                return .failure(.invalidField("\"openedAt\" must be an ISO-8601 time such as \"2026-11-23T10:00:00Z\""))
            }
            guard milliseconds <= now + acceptedClockSkewMilliseconds, milliseconds >= now - acceptedDelayMilliseconds else {
                return .failure(.invalidField("\"openedAt\" must lie within the last 7 days (and not in the future)"))
            }
            openedAt = milliseconds
        }
        var source: Source?
        if let given = value("source") {
            guard let text = given.stringValue, let known = Source(rawValue: text) else {
                return .failure(.invalidField("\"source\" must be one of \(Source.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
            }
            source = known
        }
        var view: String?
        if let given = value("view") {
            guard let text = given.stringValue else { return .failure(.invalidField("\"view\" must be a string: the lh_view token the app was handed")) }
            view = text
        }
        return .success(OpenReport(url: url, openedAt: openedAt, source: source, view: view))
    }

    /// An RFC 3339 time as UTC milliseconds: a real date, `T`, hours and minutes, optional seconds
    /// with an optional fraction of up to 9 digits, then `Z` or an offset `±HH:MM`
    /// (`2026-11-23T10:00:00Z`, `2026-11-23T11:00+01:00`). Exactly what the report API's OpenAPI
    /// document's pattern allows: the date and time through the log's own reader, so no other
    /// parser's leniency decides what is accepted.
    static func instant(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count > 16, bytes.count <= 40, bytes[10] == UInt8(ascii: "T") else { return nil }
        guard bytes.last != UInt8(ascii: "Z") else { return try? TimeBound.parse(text, now: 0) }
        // `±HH:MM` in place of the `Z`.
        let offset = bytes.suffix(6)
        guard offset.count == 6, offset.first == UInt8(ascii: "+") || offset.first == UInt8(ascii: "-"), offset[offset.startIndex + 3] == UInt8(ascii: ":"),
            let hours = twoDigits(offset.dropFirst()), let minutes = twoDigits(offset.suffix(2)), hours < 24, minutes < 60,
            let local = try? TimeBound.parse(String(decoding: bytes.dropLast(6), as: UTF8.self) + "Z", now: 0)
        else { return nil }
        let milliseconds = Int64(hours * 60 + minutes) * 60_000
        return offset.first == UInt8(ascii: "+") ? local - milliseconds : local + milliseconds
    }

    /// The number written by the first two bytes, both ASCII digits.
    private static func twoDigits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let tens = bytes[bytes.startIndex]
        let ones = bytes[bytes.startIndex + 1]
        guard (0x30...0x39).contains(tens), (0x30...0x39).contains(ones) else { return nil }
        return Int(tens - 0x30) * 10 + Int(ones - 0x30)
    }
}

/// The JSON object at the top of a report body.
enum IngestBody {
    /// The body's fields, after checking that it is an object with no field outside `allowedKeys`
    /// and no field named twice.
    ///
    /// Decisions, the same for every report endpoint: a repeated field is refused, because two JSON
    /// readers (a proxy's, a log pipeline's, ours) may keep different occurrences and so read one
    /// body two ways; and `null` means the same as leaving the field out, as Swift's `Codable` and
    /// most client libraries treat an optional that has no value — for a required field, that is
    /// "missing".
    static func fields(_ body: [UInt8], allowedKeys: [String]) -> Result<(String) -> JSONValue?, HTTPProblem> {
        let value: JSONValue
        do {
            value = try JSONParser(duplicateKeys: .keepAll, maximumDepth: 8).parse(body)
        } catch {
            return .failure(.malformedJSON(error))
        }
        guard let members = value.objectMembers else {
            return .failure(.invalidField("the body must be a JSON object, found \(value.kindDescription)"))
        }
        if let unknown = members.first(where: { !allowedKeys.contains($0.key) }) {
            return .failure(.invalidField("unknown field \"\(unknown.key.prefix(60))\"; the fields are \(allowedKeys.joined(separator: ", "))"))
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            return .failure(.invalidField("the field \"\(member.key)\" appears more than once; send each field once"))
        }
        return .success({ key in
            guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
            return value
        })
    }
}
