import Glibc

/// The wall clock in UTC milliseconds since 1970: the log's time base, and the retention cut-off.
package enum WallClock {
    package static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded towards zero.
    package var wholeMilliseconds: Int64 {
        let parts = components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
