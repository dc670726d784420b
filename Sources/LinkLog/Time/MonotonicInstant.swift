import Glibc

/// A point on `CLOCK_MONOTONIC`, for the writer's deadlines (backoff, retention, stop). The same clock
/// the condition variables are set to wait on, so a deadline means the same instant to both.
struct MonotonicInstant: Comparable, Sendable {
    var nanoseconds: UInt64

    static func now() -> MonotonicInstant {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return MonotonicInstant(nanoseconds: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
    }

    func advanced(by duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.wholeNanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? .max : sum)
    }

    /// The instant as the absolute `timespec` that `pthread_cond_timedwait` takes.
    var timespecValue: timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
