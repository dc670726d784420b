import Glibc

/// Bounds the work one input may cause: CPU time of this thread, linear in the input's size
/// (`baseMicroseconds` plus the target's `microsecondsPerByte` for each byte). A parser that is
/// quadratic somewhere (backtracking, an insert in a loop) blows the budget on long inputs long
/// before libFuzzer's `-timeout` would fire, and that counts as a finding.
///
/// The clock is the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so time the machine spends on
/// other processes does not count; an input over budget is run three more times and reported only
/// if the fastest of them is still over, so a page fault or a sanitizer's bookkeeping is not one.
/// Before the first input the target runs once on an empty input, unmeasured: that builds the
/// shared state (fixtures, servers) its later runs reuse.
enum WorkBudget {
    static let baseMicroseconds = 20_000
    nonisolated(unsafe) private static var warmedUp = false

    static func run(_ target: FuzzTarget, _ bytes: [UInt8]) {
        if !warmedUp {
            warmedUp = true
            target.run([])
        }
        let budget = baseMicroseconds + target.microsecondsPerByte * bytes.count
        var spent = measure { target.run(bytes) }
        guard spent > budget else { return }
        for _ in 0..<3 { spent = min(spent, measure { target.run(bytes) }) }
        FuzzReport.check(
            spent <= budget,
            "work: \(target.name) took \(spent) µs of CPU time for \(bytes.count) bytes (budget \(budget) µs: \(baseMicroseconds) + \(target.microsecondsPerByte) per byte)"
        )
    }

    /// The thread's CPU time spent in `body`, in microseconds.
    private static func measure(_ body: () -> Void) -> Int {
        let start = now()
        body()
        return now() - start
    }

    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000 + time.tv_nsec / 1000
    }
}
