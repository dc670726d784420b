import Foundation
import LinkLog
import OrderedJSON
import TestSupport
import Testing

@testable import LinkhostAdmin
@testable import LinkhostKit

/// The patterns in both OpenAPI documents say exactly what the server's own readers take: for
/// thousands of strings near the valid forms (every one-byte change of a set of examples, plus
/// seeded random edits), the pattern matches if and only if the reader accepts. In process, in
/// milliseconds; the property-based run over HTTP (`OpenAPIPropertyTests`) covers the rest.
@Suite("OpenAPI documents: each pattern is exactly what the server reads")
struct OpenAPIPatternTests {
    static func document(_ path: String) throws -> JSONValue {
        try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.root + "/" + path))))
    }

    /// The schema of the log API's parameter `name` (the same in every operation that has it).
    static func adminSchema(_ name: String) throws -> JSONValue {
        let paths = try document("Public/admin/openapi.json")["paths"]?.objectMembers ?? []
        let schemas = paths.flatMap { path in
            (path.value["get"]?["parameters"]?.arrayElements ?? []).filter { $0["name"]?.stringValue == name }.compactMap { $0["schema"] }
        }
        #expect(!schemas.isEmpty && schemas.allSatisfy { $0 == schemas[0] }, "\(name) has one schema everywhere")
        return try #require(schemas.first)
    }

    /// Whether `expression` (a JSON Schema pattern, ECMA-262, here read by ICU) matches all of `text`.
    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        let whole = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: whole)?.range == whole
    }

    /// `examples`, each with every byte replaced by, and every position given, each of `alphabet`,
    /// every byte removed, and `randomEdits` seeded random edits of several bytes.
    static func neighbours(of examples: [String], alphabet: String, randomEdits: Int = 3000) -> Set<String> {
        let letters = Array(alphabet)
        var found = Set(examples)
        for example in examples {
            let characters = Array(example)
            for index in characters.indices {
                var removed = characters
                removed.remove(at: index)
                found.insert(String(removed))
                for letter in letters {
                    var replaced = characters
                    replaced[index] = letter
                    found.insert(String(replaced))
                    var inserted = characters
                    inserted.insert(letter, at: index)
                    found.insert(String(inserted))
                }
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<randomEdits {
            var characters = Array(examples[next(examples.count)])
            for _ in 0...next(3) {
                let index = next(characters.count + 1)
                switch next(3) {
                case 0 where index < characters.count: characters[index] = letters[next(letters.count)]
                case 1 where index < characters.count: characters.remove(at: index)
                default: characters.insert(letters[next(letters.count)], at: index)
                }
            }
            found.insert(String(characters))
        }
        return found
    }

    /// Each candidate the pattern and the reader disagree on, with who said yes.
    static func disagreements(_ pattern: String, _ candidates: Set<String>, accepts: (String) -> Bool) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return candidates.sorted().compactMap { text in
            let documented = matches(expression, text)
            return documented == accepts(text) ? nil : "\(text.debugDescription): the document says \(documented), the server \(!documented)"
        }
    }

    @Test func timeBoundsAreSpansAndRealDatesAndTimes() throws {
        let pattern = try #require(try Self.adminSchema("since")["pattern"]?.stringValue)
        #expect(try Self.adminSchema("until")["pattern"]?.stringValue == pattern)
        let examples = [
            "7d", "30m", "24h", "2w", "45s", "123456789d", "2026-11-01", "2024-02-29", "2000-02-29", "1900-02-28", "2026-04-30", "2026-12-31",
            "2026-11-01T10:00Z", "2026-11-01T23:59:59Z", "2026-11-01T10:00:00.5Z", "2026-11-01T10:00:00.123456789Z",
        ]
        let candidates = Self.neighbours(of: examples, alphabet: "0123459-:.TZsmhdwx \n")
        #expect(candidates.count > 5000)
        let wrong = try Self.disagreements(pattern, candidates) { (try? TimeBound.parse($0, now: 1_800_000_000_000)) != nil }
        #expect(wrong.isEmpty, "\(wrong.count) disagreements:\n\(wrong.prefix(20).joined(separator: "\n"))")
    }

    @Test func cursorsAndColumnsAreWhatTheAPIReads() throws {
        let cursor = try #require(try Self.adminSchema("cursor")["pattern"]?.stringValue)
        let cursors = Self.neighbours(
            of: ["1.1", "1764000000000.42", "123456789012345678.123456789012345678", "0.16840879575924325520290709"], alphabet: "09.-+x ")
        let wrongCursors = try Self.disagreements(cursor, cursors) { LogAPI.cursor($0) != nil }
        #expect(wrongCursors.isEmpty, "\(wrongCursors.count) disagreements:\n\(wrongCursors.prefix(20).joined(separator: "\n"))")

        let columns = try #require(try Self.adminSchema("columns")["pattern"]?.stringValue)
        let names = HitColumn.allCases.map(\.rawValue)
        let lists = Self.neighbours(
            of: ["id", "time,host,path,utm_campaign", names.joined(separator: ","), "secret,id,id"], alphabet: ",_aeis ", randomEdits: 1000)
        let wrongColumns = try Self.disagreements(columns, lists) { (try? LogAPI.columns($0)) != nil }
        #expect(wrongColumns.isEmpty, "\(wrongColumns.count) disagreements:\n\(wrongColumns.prefix(20).joined(separator: "\n"))")
    }

    @Test func openedAtIsAnRFC3339TimeWithARealDate() throws {
        let report = try Self.document("Public/static/openapi-ingest.json")["components"]?["schemas"]?["OpenReport"]
        let pattern = try #require(report?["properties"]?["openedAt"]?["pattern"]?.stringValue)
        let examples = [
            "2026-11-23T10:00:00Z", "2026-11-23T10:00Z", "2026-11-23T10:00:00.123Z", "2026-11-23T11:00:00+01:00", "2026-11-22T23:29-07:09",
            "2024-02-29T00:00:00.123456789-23:59", "2026-11-23T10:00:00+00:00",
        ]
        let candidates = Self.neighbours(of: examples, alphabet: "0123459-:.TZ+x ")
        let wrong = try Self.disagreements(pattern, candidates) { OpenReport.instant($0) != nil }
        #expect(wrong.isEmpty, "\(wrong.count) disagreements:\n\(wrong.prefix(20).joined(separator: "\n"))")
        // An offset moves the instant: 11:00 at +01:00 is 10:00 UTC.
        #expect(OpenReport.instant("2026-11-23T11:00:00+01:00") == OpenReport.instant("2026-11-23T10:00:00Z"))
        #expect(OpenReport.instant("2026-11-23T09:30-00:30") == OpenReport.instant("2026-11-23T10:00Z"))
    }
}
