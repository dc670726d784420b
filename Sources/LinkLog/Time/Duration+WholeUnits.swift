extension Duration {
    /// The duration in whole milliseconds, rounded towards zero.
    package var wholeMilliseconds: Int64 {
        let parts = components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }

    /// The duration in whole nanoseconds, rounded towards zero; negative durations count as zero.
    package var wholeNanoseconds: UInt64 {
        let parts = components
        guard parts.seconds >= 0, parts.attoseconds >= 0 else { return 0 }
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
    }
}
