import Dispatch
import LinkLog
import LinkLogDatabases
import Logging
import Synchronization

/// Keeps the SQLite log's `LinkWindow` up to date while the server runs, so a reload's traffic
/// check reads a few forms instead of the window's rows: every `interval` it takes in the rows
/// logged since, a chunk at a time (a reload waits for at most one chunk). Until the window has
/// caught up with the log once (minutes for a log of millions of links, at the first start only),
/// `forms` answers `nil` and a reload reads the log as before.
///
/// Runs on a Dispatch queue of its own, as `CDNWatch` does, not on the cooperative pool.
final class LinkWindowKeeper: Sendable {
    private struct State {
        /// Whether the running config asks for the check (`checkAgainstLogDays` > 0).
        var wanted = false
        var isStopped = false
        /// Whether a pass or the wait after one is scheduled: one chain of passes at a time.
        var isTicking = false
        var isCaughtUp = false
        var problem: String?
    }

    private let location: String
    private let interval: Duration
    private let logger: Logger
    private let state = Mutex(State())
    private let window = Mutex<LinkWindow?>(nil)
    private let queue = DispatchQueue(label: "linkhost.link-window")

    /// A keeper for the log at `location`; `nil` when that log keeps no window (PostgreSQL).
    init?(logLocation location: String, interval: Duration = .seconds(2), logger: Logger) {
        guard !LogDatabaseLocator.isURL(location) else { return nil }
        self.location = location
        self.interval = interval
        var logger = logger
        logger[metadataKey: "component"] = "link-window"
        self.logger = logger
    }

    /// Keeps the window while `wanted` (the serving config's `checkAgainstLogDays` > 0), from now on.
    func keep(_ wanted: Bool) {
        let starts = state.withLock { state in
            state.wanted = wanted
            guard wanted, !state.isTicking, !state.isStopped else { return false }
            state.isTicking = true
            return true
        }
        if starts { queue.async { [weak self] in self?.tick() } }
    }

    /// Whether the window has caught up with the log once.
    var isCaughtUp: Bool { state.withLock { $0.isCaughtUp } }

    /// Stops for good (the server is stopping); a pass under way ends after its chunk.
    func stop() {
        state.withLock { $0.isStopped = true }
    }

    /// The forms used since `since`, the rows logged until now taken in first; `nil` until the window
    /// has caught up with the log, or when it cannot be read.
    func forms(since: Int64, now: Int64) -> [LoggedLink]? {
        guard state.withLock({ $0.isCaughtUp && $0.problem == nil }) else { return nil }
        return window.withLock { window -> [LoggedLink]? in
            guard let window else { return nil }
            do {
                try window.catchUp(now: now)
                return try window.forms(since: since)
            } catch {
                logger.warning("the link window could not be read (a reload reads the log instead): \(error)")
                return nil
            }
        }
    }

    /// One pass: opens the window if need be, takes in every chunk there is, then waits `interval`.
    private func tick() {
        let goes = state.withLock { state in
            state.isTicking = state.wanted && !state.isStopped
            return state.isTicking
        }
        guard goes else { return }
        var more = true
        while more, !state.withLock({ $0.isStopped }) {
            let outcome = window.withLock { window -> Result<Bool, any Error> in
                Result {
                    if window == nil { window = try LogDatabaseLocator.linkWindow(forLogAt: location) }
                    return try window?.absorb(now: LogRecord.currentTimeMilliseconds()) ?? false
                }
            }
            switch outcome {
            case .success(let left):
                more = left
                let first = state.withLock { state in
                    defer {
                        if !left { state.isCaughtUp = true }
                        state.problem = nil
                    }
                    return !left && !state.isCaughtUp
                }
                if first { logger.notice("the link window has caught up with the log: reloads answer its forms") }
            case .failure(LogError.databaseMissing):
                // The log is made by its writer's first batch: nothing to take in yet.
                more = false
            case .failure(let error):
                more = false
                let new = state.withLock { state in
                    defer { state.problem = "\(error)" }
                    return state.problem != "\(error)"
                }
                if new { logger.warning("the link window cannot be kept (reloads read the log instead): \(error)") }
                window.withLock { $0 = nil }
            }
        }
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in self?.tick() }
    }
}
