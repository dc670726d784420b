import LinkhostClient
import Testing

/// The backoff's pauses: exponential, capped, jittered within bounds.
@Suite("RetryPolicy")
struct RetryPolicyTests {
    @Test func withoutJitterThePausesDoubleUpToTheCap() {
        let policy = RetryPolicy(initialDelay: 0.5, multiplier: 2, maximumDelay: 3, jitter: 0)
        #expect((1...6).map { policy.delay(beforeRetry: $0) } == [0.5, 1, 2, 3, 3, 3])
        #expect(policy.delay(beforeRetry: 10_000) == 3)
    }

    @Test func jitterKeepsEachPauseWithinItsShare() {
        let policy = RetryPolicy(initialDelay: 1, multiplier: 2, maximumDelay: 4, jitter: 0.5)
        for retry in 1...5 {
            let base = min(4, Double(1 << (retry - 1)))
            let pauses = (0..<200).map { _ in policy.delay(beforeRetry: retry) }
            #expect(pauses.allSatisfy { $0 >= base * 0.5 && $0 <= base }, "retry \(retry)")
            #expect(Set(pauses).count > 1, "jitter makes the pauses differ")
        }
    }

    @Test func valuesAreClampedToSenseAndNeverIsOneAttempt() {
        let policy = RetryPolicy(maximumAttempts: 0, initialDelay: -1, multiplier: 0.5, maximumDelay: -2, jitter: 7, maximumTotalTime: -3)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.initialDelay == 0)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
        #expect(policy.maximumTotalTime == 0)
        #expect(policy.delay(beforeRetry: 3) == 0)
        #expect(RetryPolicy.never.maximumAttempts == 1)
        #expect(RetryPolicy.standard.maximumAttempts > 1)
    }
}
