import Synchronization

/// Token buckets by key (a site and a client network), refilled continuously.
///
/// Memory is bounded: past `maximumKeys` buckets, the ones that have refilled completely (clients
/// that went quiet) are dropped, and if that is not enough every bucket starts over — a flood of
/// spoofed networks can reset limits but can never grow the table without bound.
package final class TokenBucketLimiter: Sendable {
    /// What a request gets.
    package enum Decision: Equatable {
        case allowed
        /// Refused; a token is available again after this many whole seconds (at least 1).
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updatedAt: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    let maximumKeys: Int

    package init(maximumKeys: Int = 65_536) {
        self.maximumKeys = maximumKeys
    }

    /// Takes a token from `key`'s bucket of `limit` if one is there.
    func take(_ key: String, limit: IngestRateLimit, now: ContinuousClock.Instant = .now) -> Decision {
        take(key, burst: limit.burst, perSecond: Double(limit.perSecond), now: now)
    }

    /// Takes a token from `key`'s bucket of `burst` tokens refilled at `perSecond` (which may be a
    /// fraction: one login attempt every twelve seconds is 1/12).
    package func take(_ key: String, burst: Int, perSecond: Double, now: ContinuousClock.Instant = .now) -> Decision {
        let burst = Double(burst)
        let rate = perSecond / 1_000_000_000
        return buckets.withLock { table in
            var bucket = table[key] ?? Bucket(tokens: burst, updatedAt: now)
            if now > bucket.updatedAt {
                bucket.tokens = min(burst, bucket.tokens + Self.nanoseconds(from: bucket.updatedAt, to: now) * rate)
                bucket.updatedAt = now
            }
            let decision: Decision
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                decision = .allowed
            } else {
                let wait = (1 - bucket.tokens) / rate / 1_000_000_000
                decision = .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
            }
            if table[key] == nil, table.count >= maximumKeys {
                table = table.filter { _, old in old.tokens + Self.nanoseconds(from: old.updatedAt, to: now) * rate < burst }
                if table.count >= maximumKeys { table.removeAll(keepingCapacity: true) }
            }
            table[key] = bucket
            return decision
        }
    }

    private static func nanoseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = start.duration(to: end).components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// How many buckets are kept (for tests of the memory bound).
    var count: Int { buckets.withLock { $0.count } }
}
