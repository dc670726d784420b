/// How far a rollup rebuild has come, after each chunk of days.
public struct RollupProgress: Sendable, Equatable {
    /// Chunks done, of `totalChunks`.
    public var chunksDone: Int
    /// How many chunks the hits' time span makes.
    public var totalChunks: Int
    /// Hits counted into the rollups so far.
    public var hitsCounted: Int64
    /// Chunks whose counts came from the counting connections (`RollupBuilder(countingOn:)`) rather
    /// than from the writer counting them itself.
    public var chunksCountedAhead: Int = 0
}
