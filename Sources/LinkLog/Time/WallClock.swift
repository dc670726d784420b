import Glibc

/// The wall clock in UTC milliseconds since 1970: the log's time base, and the retention cut-off.
package enum WallClock {
    package static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
