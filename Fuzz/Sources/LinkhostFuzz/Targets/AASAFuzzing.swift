import AASAKit
import OrderedJSON

/// The AASA reader and validator (AASAKit) on a file as a server or Apple's CDN serves it. A file
/// that reads compares as equivalent to itself and to its own JSON written out again (compact),
/// and both match a few URLs alike; the matcher explains every answer.
enum AASAFuzzing {
    static let target = FuzzTarget(
        name: "aasa",
        summary: "AASAValidator/AASADocument on file bytes; self-comparison and re-serialization agree; matcher answers explained",
        maximumLength: 8192,
        // Per input: the validator, two comparisons, a rewrite read back and ten explained matches.
        // Linear (5,318 bytes took 153 ms, 8,167 bytes 229 ms: 1.54 times the bytes, 1.50 times the
        // time), but with four processes on the two cores that is 29 µs a byte, over the default 25.
        microsecondsPerByte: 60,
        run: run
    )

    static let urls = [
        "https://example.com/", "https://example.com/a/b?c=1&c=2#f", "https://example.com/x%2Fy?%zz=%", "https://example.com/buy/123?ref=x",
        "https://EXAMPLE.com:443/%E6%97%A5?a=%C3%A9#frag",
    ]

    static func run(_ bytes: [UInt8]) {
        let report = AASAValidator().validate(bytes: bytes)
        guard let document = report.document else {
            FuzzReport.check(report.hasErrors, "no document and no error for \(FuzzReport.shown(bytes))")
            return
        }
        FuzzReport.check(AASAComparison(expected: document, found: document).isEquivalent, "a file differs from itself: \(FuzzReport.shown(bytes))")
        let rewritten: AASADocument
        do {
            rewritten = try AASADocument(bytes: document.root.serialized(.compact))
        } catch {
            FuzzReport.fail("the file's JSON written out again does not read: \(error) for \(FuzzReport.shown(bytes))")
        }
        let comparison = AASAComparison(expected: document, found: rewritten)
        FuzzReport.check(comparison.isEquivalent, "rewriting the file changed it: \(comparison.differences) for \(FuzzReport.shown(bytes))")
        let matcher = AASAMatcher(document)
        let rewrittenMatcher = AASAMatcher(rewritten)
        let options = AASAMatchOptions(domain: "example.com")
        for url in urls {
            guard let result = try? matcher.match(url, options: options), let again = try? rewrittenMatcher.match(url, options: options) else {
                FuzzReport.fail("\(url) does not parse")
            }
            FuzzReport.check(!result.explanation.isEmpty && !result.swcutilVerifyLines().isEmpty, "\(url): no explanation")
            FuzzReport.check(
                result.decision == again.decision && result.rule == again.rule,
                "\(url): \(result.decision) by \(String(describing: result.rule)), rewritten \(again.decision) by \(String(describing: again.rule))")
            if result.decision == .match { FuzzReport.check(!result.appIDs.isEmpty && result.rule != nil, "\(url): a match of no app") }
        }
    }
}
