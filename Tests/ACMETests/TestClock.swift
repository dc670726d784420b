import ACME
import Foundation
import Synchronization

/// A clock whose sleeps return at once, moving its time to the deadline and noting each pause: an
/// order's polls run in no time and the test reads how long they would have waited.
final class TestClock: ACMEClock {
    private let current: Mutex<Date>
    private let pauses = Mutex<[TimeInterval]>([])

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    func now() -> Date { current.withLock { $0 } }

    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        current.withLock { now in
            pauses.withLock { $0.append(deadline.timeIntervalSince(now)) }
            if deadline > now { now = deadline }
        }
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The length of every sleep so far, in seconds.
    var sleeps: [TimeInterval] { pauses.withLock { $0 } }
}
