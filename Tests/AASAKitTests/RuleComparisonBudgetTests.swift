import Testing

@testable import AASAKit

/// The validator compares every pair of an entry's rules to find unreachable ones; each comparison
/// costs the product of two patterns' lengths. The aasa fuzz target found eight legacy paths of
/// about two hundred characters taking 60 ms, which grows with the square of the file
/// (Fuzz/aasa/regressions/pairwise-rule-comparisons); now the comparisons of one entry share a
/// budget linear in its rules.
@Suite("Rule comparison budget")
struct RuleComparisonBudgetTests {
    /// `count` legacy paths of about `length` characters, alike but in the middle, so every pair
    /// needs the whole table and none covers another.
    static func entry(paths count: Int, length: Int) throws -> CompiledEntry {
        let paths = (0..<count).map { index in
            "\"/" + String(repeating: "`", count: length / 2) + "*\(index)*" + String(repeating: "W", count: length / 2) + "\""
        }
        let json = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths.joined(separator: ", "))]}]}}"#
        let matcher = AASAMatcher(try AASADocument(bytes: Array(json.utf8)))
        return try #require(matcher.entries.first)
    }

    @Test(arguments: [(8, 400), (40, 400), (200, 100)])
    func theComparisonsOfOneEntryStayWithinABudgetLinearInItsRules(paths: Int, length: Int) throws {
        let entry = try Self.entry(paths: paths, length: length)
        let tokens = RuleOrderChecks.comparedTokens(of: entry)
        var budget = PatternInclusion.Budget(tokens: tokens)
        _ = RuleOrderChecks.findings(for: entry, budget: &budget)
        let bound = PatternInclusion.Budget.floorCells + PatternInclusion.Budget.cellsPerToken * tokens
        #expect(budget.spentCells <= bound)
        #expect(budget.spentCells > 0)
    }

    /// Ordinary files stay far below the floor: every unreachable rule is still found.
    @Test func everyShadowedRuleOfAnOrdinaryFileIsStillFound() throws {
        let paths = (0..<100).flatMap { [#""/section\#($0)/*""#, #""/section\#($0)/item""#] }
        let json = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths.joined(separator: ", "))]}]}}"#
        let report = AASAValidator().validate(bytes: Array(json.utf8))
        #expect(report.findings(.shadowedRule).count == 100)
    }
}
