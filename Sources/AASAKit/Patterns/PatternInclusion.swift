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

    static func includes(_ outer: AASAPattern, _ inner: AASAPattern) -> Bool {
        guard outer.problem == nil, inner.problem == nil, outer.caseSensitive == inner.caseSensitive else { return false }
        let outerVariants = variants(of: outer)
        return variants(of: inner).allSatisfy { innerTokens in
            outerVariants.contains { covers($0, innerTokens, foldingCase: !outer.caseSensitive) }
        }
    }

    /// The token lists a pattern stands for: itself, plus the shortened form of a path ending in `/*`.
    private static func variants(of pattern: AASAPattern) -> [[PatternToken]] {
        guard let tail = pattern.optionalTailStart else { return [pattern.tokens] }
        return [pattern.tokens, Array(pattern.tokens.prefix(tail))]
    }

    private static func covers(_ outer: [PatternToken], _ inner: [PatternToken], foldingCase: Bool) -> Bool {
        let rows = outer.count + 1
        let columns = inner.count + 1
        guard rows * columns <= maximumCells else { return false }
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
