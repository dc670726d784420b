/// A stretch of time `[since, until)` (open where `nil`) and the table its hits are counted from.
struct CountPiece: Equatable {
    var source: CountSource
    var since: Int64?
    var until: Int64?
}
