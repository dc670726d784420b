import TestSupport
import Testing

@testable import AASAKit

/// The compiled matcher must agree with the naive reference on thousands of random cases.
@Suite("Wildcard matching properties")
struct WildcardPropertyTests {
    static let patternAlphabet: [Character] = ["a", "b", "A", "/", "*", "?"]
    static let textAlphabet: [Character] = ["a", "b", "A", "/"]

    @Test(arguments: [1 as UInt64, 2, 3])
    func textPatternsAgreeWithReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            let pattern = random.string(from: Self.patternAlphabet, maximumLength: 7)
            let text = random.string(from: Self.textAlphabet, maximumLength: 9)
            let caseSensitive = Bool.random(using: &random)
            let expected = NaiveWildcardMatcher.matches(pattern: pattern, text: text, caseSensitive: caseSensitive)
            let actual = AASAPattern(pattern, caseSensitive: caseSensitive).matches(text)
            if expected != actual { disagreements.append("\(pattern) ~ \(text) caseSensitive=\(caseSensitive): expected \(expected)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test(arguments: [11 as UInt64, 12, 13])
    func pathPatternsAgreeWithReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var disagreements: [String] = []
        var matchedCount = 0
        for _ in 0..<3_000 {
            let pattern = random.string(from: Self.patternAlphabet, maximumLength: 7)
            let path = "/" + random.string(from: Self.textAlphabet, maximumLength: 8)
            let expected = NaiveWildcardMatcher.matchesPath(pattern: pattern, path: path)
            let actual = AASAPattern(pattern, role: .urlPath).matches(path)
            if expected { matchedCount += 1 }
            if expected != actual { disagreements.append("\(pattern) ~ \(path): expected \(expected)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // The generator must produce both outcomes, or the agreement above proves little.
        #expect(matchedCount > 100)
        #expect(matchedCount < 2_900)
    }

    /// When the validator says one pattern covers another, no text may match the inner one only.
    @Test(arguments: [21 as UInt64, 22])
    func inclusionIsSound(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var claimed = 0
        var counterexamples: [String] = []
        for _ in 0..<1_500 {
            let outer = AASAPattern(random.string(from: Self.patternAlphabet, maximumLength: 5), role: .urlPath)
            let inner = AASAPattern(random.string(from: Self.patternAlphabet, maximumLength: 6), role: .urlPath)
            var budget = PatternInclusion.Budget(tokens: 0)
            guard PatternInclusion.includes(outer, inner, budget: &budget) else { continue }
            claimed += 1
            for _ in 0..<40 {
                let path = "/" + random.string(from: Self.textAlphabet, maximumLength: 8)
                if inner.matches(path), !outer.matches(path) {
                    counterexamples.append("\(outer.source) ⊇ \(inner.source) but \(path)")
                }
            }
        }
        #expect(claimed > 50)
        #expect(counterexamples.isEmpty, "\(counterexamples.prefix(5))")
    }

    /// Many stars against a long run of one letter stays polynomial (it simply has to finish).
    @Test func pathologicalPatternFinishes() {
        let pattern = AASAPattern("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b")
        let text = String(repeating: "a", count: 20_000)
        #expect(!pattern.matches(text))
        #expect(pattern.matches(text + "b"))
        let questions = AASAPattern(String(repeating: "?*", count: 40) + "b")
        #expect(!questions.matches(String(repeating: "a", count: 5_000)))
    }
}
