import AASAKit
import Foundation

/// The AASA matcher (AASAURL, AASAMatcher) on URLs against fixed files (the tests' seed files and
/// the fixture sites' generated ones), and one pattern (`*`, `?`, literals) against one text by
/// `AASAPattern` and by a plain dynamic-programming reading of the same rules: two paths that must
/// agree. Input: selector byte, then the URL; or, with the selector's low bit set, pattern NUL text.
enum AASAMatchFuzzing {
    static let target = FuzzTarget(
        name: "aasa-match",
        summary: "AASAURL + AASAMatcher on fixed files; AASAPattern vs a plain wildcard reading",
        maximumLength: 2048,
        run: run
    )

    static let documents: [(matcher: AASAMatcher, domain: String)] = {
        var documents: [(AASAMatcher, String)] = []
        for file in ["Tests/Fixtures/seed000-aasa.json", "Tests/Fixtures/seed004-aasa.json"] {
            do {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: FuzzFixtures.root + "/" + file)))
                documents.append((AASAMatcher(try AASADocument(bytes: bytes)), "example.com"))
            } catch {
                FuzzReport.fail("fixture \(file) does not read: \(error)")
            }
        }
        for (site, matcher) in RoutingFuzzing.sites { documents.append((matcher, site.primaryHost)) }
        return documents
    }()

    static func run(_ bytes: [UInt8]) {
        let selector = Int(bytes.first ?? 0)
        let rest = Array(bytes.dropFirst())
        if selector & 1 == 1 {
            comparePattern(rest, caseSensitive: selector & 2 == 0)
            return
        }
        let (matcher, domain) = documents[(selector >> 1) % documents.count]
        let text = String(decoding: rest, as: UTF8.self)
        guard let url = try? AASAURL(text) else { return }
        let options = AASAMatchOptions(domain: domain)
        let result = matcher.match(url, options: options)
        FuzzReport.check(!result.explanation.isEmpty && !result.swcutilVerifyLines().isEmpty, "\(FuzzReport.shown(text)): no explanation")
        if result.decision == .match { FuzzReport.check(!result.appIDs.isEmpty && result.rule != nil, "\(FuzzReport.shown(text)): a match of no app") }
        if let again = try? AASAURL(url.text) {
            let second = matcher.match(again, options: options)
            FuzzReport.check(
                second.decision == result.decision && second.rule == result.rule, "\(FuzzReport.shown(text)) matches differently from its own text")
        }
    }

    /// `*` any run, `?` one scalar, all else literal (no variables: `$(` is text, as in `paths`).
    private static func comparePattern(_ bytes: [UInt8], caseSensitive: Bool) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let pattern = String(decoding: parts[0], as: UTF8.self)
        let text = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        guard caseSensitive || (pattern + text).unicodeScalars.allSatisfy(\.isASCII) else { return }
        let compiled = AASAPattern(pattern, role: .text, caseSensitive: caseSensitive, variables: nil)
        guard compiled.problem == nil else { return }
        let expected = plainMatch(pattern, text, caseSensitive: caseSensitive)
        FuzzReport.check(
            compiled.matches(text) == expected,
            "pattern \(FuzzReport.shown(pattern)) on \(FuzzReport.shown(text)) (case-sensitive: \(caseSensitive)): AASAPattern says \(!expected), plainly \(expected)"
        )
    }

    /// Table of "pattern prefix i matches text prefix j", filled row by row.
    private static func plainMatch(_ pattern: String, _ text: String, caseSensitive: Bool) -> Bool {
        let fold: (Unicode.Scalar) -> Unicode.Scalar = { scalar in
            caseSensitive || !(0x41...0x5A).contains(scalar.value) ? scalar : Unicode.Scalar(scalar.value + 0x20)!
        }
        let wanted = pattern.unicodeScalars.map(fold)
        let given = text.unicodeScalars.map(fold)
        var row = [Bool](repeating: false, count: given.count + 1)
        row[0] = true
        for token in wanted {
            var next = [Bool](repeating: false, count: given.count + 1)
            for column in 0...given.count {
                switch token {
                case "*": next[column] = row[column] || (column > 0 && next[column - 1])
                case "?": next[column] = column > 0 && row[column - 1]
                default: next[column] = column > 0 && row[column - 1] && given[column - 1] == token
                }
            }
            row = next
        }
        return row[given.count]
    }
}
