extension Duration {
    /// The duration in whole milliseconds, rounded towards zero.
    package var wholeMilliseconds: Int64 {
        let parts = components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
