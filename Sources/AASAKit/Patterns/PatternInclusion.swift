/// A sufficient test that every text one pattern accepts is accepted by another, used to find
/// rules an earlier rule makes unreachable.
///
/// It compares the token lists symbolically with a dynamic-programming table (no backtracking):
/// an outer `*` absorbs any run of inner tokens, an outer `?` absorbs one single-character token,
/// literals must be equal, a character class absorbs its members, a variable only itself. A `true`
/// answer is always right; a `false` answer may miss exotic inclusions, which only means a
/// shadowed rule goes unreported.
enum PatternInclusion {
    /// Largest table built; bigger comparisons answer `false`.
    static let maximumCells = 250_000

    /// The cells all comparisons of one list of rules may fill together. Each comparison costs the
    /// product of two patterns' lengths, so comparing every pair of a file's rules grows with the
    /// square of the file: 60 ms for eight legacy paths of 400 characters, over a minute for a
    /// hostile 128 KB file. A floor that ordinary files stay well under, plus a share per token of
    /// the compared patterns, keeps the work linear in the file's size; once it is spent the
    /// comparisons answer `false`, as for a table that is too big.
    struct Budget {
        static let floorCells = 1_000_000
        static let cellsPerToken = 512

        let initialCells: Int
        private(set) var remainingCells: Int

        init(tokens: Int) {
            initialCells = Self.floorCells + Self.cellsPerToken * tokens
            remainingCells = initialCells
        }

        var spentCells: Int { initialCells - remainingCells }

        /// Takes `cells` if that many are left.
        mutating func spend(_ cells: Int) -> Bool {
            guard cells <= remainingCells else { return false }
            remainingCells -= cells
            return true
        }
    }

    static func includes(_ outer: AASAPattern, _ inner: AASAPattern, budget: inout Budget) -> Bool {
        guard outer.problem == nil, inner.problem == nil, outer.caseSensitive == inner.caseSensitive else { return false }
        let outerVariants = variants(of: outer)
        return variants(of: inner).allSatisfy { innerTokens in
            outerVariants.contains { covers($0, innerTokens, foldingCase: !outer.caseSensitive, budget: &budget) }
        }
    }

    /// The tokens a pattern compares with, for sizing a `Budget`.
    static func tokenCount(of pattern: AASAPattern?) -> Int { pattern?.tokens.count ?? 0 }

    /// The token lists a pattern stands for: itself, plus the shortened form of a path ending in `/*`.
    private static func variants(of pattern: AASAPattern) -> [[PatternToken]] {
        guard let tail = pattern.optionalTailStart else { return [pattern.tokens] }
        return [pattern.tokens, Array(pattern.tokens.prefix(tail))]
    }

    private static func covers(_ outer: [PatternToken], _ inner: [PatternToken], foldingCase: Bool, budget: inout Budget) -> Bool {
        guard fixedEndsAgree(outer, inner, foldingCase: foldingCase) else { return false }
        let rows = outer.count + 1
        let columns = inner.count + 1
        guard rows * columns <= maximumCells, budget.spend(rows * columns) else { return false }
        // table[i * columns + j]: outer[i...] covers inner[j...]
        var table = Array(repeating: false, count: rows * columns)
        table[outer.count * columns + inner.count] = true
        for i in stride(from: outer.count - 1, through: 0, by: -1) {
            for j in stride(from: inner.count, through: 0, by: -1) {
                let cell: Bool
                if outer[i] == .anyRun {
                    cell = table[(i + 1) * columns + j] || (j < inner.count && table[i * columns + j + 1])
                } else if j == inner.count {
                    cell = false
                } else {
                    cell = absorbs(outer[i], inner[j], foldingCase: foldingCase) && table[(i + 1) * columns + j + 1]
                }
                table[i * columns + j] = cell
            }
        }
        return table[0]
    }

    /// Whether the outer tokens before its first `*` and after its last each absorb the inner token
    /// in the same place, as the table would have them: a necessary condition, checked without a
    /// table, that most pairs of real rules (`/a/*` and `/b/x`) already fail.
    private static func fixedEndsAgree(_ outer: [PatternToken], _ inner: [PatternToken], foldingCase: Bool) -> Bool {
        let head = outer.firstIndex(of: .anyRun) ?? outer.count
        guard head <= inner.count, zip(outer[..<head], inner[..<head]).allSatisfy({ absorbs($0, $1, foldingCase: foldingCase) }) else { return false }
        guard let last = outer.lastIndex(of: .anyRun) else { return outer.count == inner.count }
        let tail = outer.count - last - 1
        guard head + tail <= inner.count else { return false }
        return zip(outer.suffix(tail), inner.suffix(tail)).allSatisfy { absorbs($0, $1, foldingCase: foldingCase) }
    }

    private static func absorbs(_ outer: PatternToken, _ inner: PatternToken, foldingCase: Bool) -> Bool {
        switch (outer, inner) {
        case (.scalar(let a), .scalar(let b)): return a == b
        case (.anyScalar, .scalar), (.anyScalar, .anyScalar), (.anyScalar, .scalarClass): return true
        case (.scalarClass(let set), .scalar(let scalar)): return set.contains(scalar, foldingCase: foldingCase)
        case (.scalarClass(let set), .scalarClass(let other)): return set.isSuperset(of: other)
        case (.alternatives, .alternatives): return outer == inner
        default: return false
        }
    }
}
