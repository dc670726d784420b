/// Where one part of a count comes from: the hits themselves, or a rollup table.
enum CountSource: Equatable {
    case hits
    case rollup(RollupGrain)
}
