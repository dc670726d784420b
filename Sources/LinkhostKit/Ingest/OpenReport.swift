import Foundation
import HTTPServing
import LinkLog
import OrderedJSON

/// The body of `POST /v1/opens`: `{"url": "...", "openedAt": "2026-11-23T10:00:00Z", "source":
/// "universal-link"}`, `openedAt` and `source` optional.
struct OpenReport: Sendable, Equatable {
    /// How the app received the link.
    enum Source: String, Sendable, CaseIterable {
        case universalLink = "universal-link"
        case customScheme = "custom-scheme"
        case pasteboard
    }

    let url: String
    /// When the app was opened, UTC milliseconds; `nil` means "now".
    let openedAt: Int64?
    let source: Source?

    /// Reports may arrive late (an app offline for a while) but not from the future or the distant
    /// past: both would misplace the open in every statistic.
    static let acceptedDelayMilliseconds: Int64 = 7 * 86_400_000
    static let acceptedClockSkewMilliseconds: Int64 = 5 * 60_000

    static let allowedKeys = ["url", "openedAt", "source"]

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
        if let given = value("openedAt"), given != .null {
            guard let text = given.stringValue, let milliseconds = instant(text) else {
                return .failure(.invalidField("\"openedAt\" must be an ISO-8601 time such as \"2026-11-23T10:00:00Z\""))
            }
            guard milliseconds <= now + acceptedClockSkewMilliseconds, milliseconds >= now - acceptedDelayMilliseconds else {
                return .failure(.invalidField("\"openedAt\" must lie within the last 7 days (and not in the future)"))
            }
            openedAt = milliseconds
        }
        var source: Source?
        if let given = value("source"), given != .null {
            guard let text = given.stringValue, let known = Source(rawValue: text) else {
                return .failure(.invalidField("\"source\" must be one of \(Source.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
            }
            source = known
        }
        return .success(OpenReport(url: url, openedAt: openedAt, source: source))
    }

    /// UTC `…Z` times through the log's own reader; offsets (`+01:00`) through Foundation's.
    private static func instant(_ text: String) -> Int64? {
        guard text.utf8.count <= 40 else { return nil }
        if text.hasSuffix("Z"), text.utf8.count > 10, let milliseconds = try? TimeBound.parse(text, now: 0) { return milliseconds }
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains("."))) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// The JSON object at the top of a report body.
enum IngestBody {
    /// The body's fields (the last occurrence of a repeated key, as most JSON readers do), after
    /// checking that it is an object with no field outside `allowedKeys`.
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
        return .success({ key in members.last { $0.key == key }?.value })
    }
}
