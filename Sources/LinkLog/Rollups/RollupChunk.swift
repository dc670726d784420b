/// A stretch of the log a rebuild does in one transaction, `[since, until)` on day boundaries; the
/// first chunk is open towards the past (`since` nil) and the last towards the future (`until` nil).
struct RollupChunk: Sendable, Equatable {
    var since: Int64?
    var until: Int64?

    /// `column >= since AND column < until`, as far as either is set, with the values added to `arguments`.
    func clauses(on column: String, into arguments: inout SQLArguments) -> [String] {
        SQLCondition.timeClauses(since: since, until: until, column: column, into: &arguments)
    }
}
