import LinkLogSQLite
import Testing

@testable import LinkLog

/// The writer's decisions step by step, on a clock that moves only when the test says so: what the
/// writer thread would do at each instant, with no thread, database or real time involved.
@Suite("Writer cycle")
struct WriterCycleTests {
    /// 2026-11-05T13:00:00Z, the wall time the retention cut-offs are counted back from.
    static let wall: Int64 = 1_793_883_600_000
    static let day: Int64 = 86_400_000

    static func cycle(
        retentionDays: Int = 0, retentionInterval: Duration = .seconds(3600),
        initialRetryDelay: Duration = .seconds(1), maximumRetryDelay: Duration = .seconds(5)
    ) -> WriterCycle {
        WriterCycle(
            configuration: LogWriterConfiguration(
                databasePath: "/nonexistent/never-opened.sqlite", retentionDays: retentionDays, retentionInterval: retentionInterval,
                initialRetryDelay: initialRetryDelay, maximumRetryDelay: maximumRetryDelay))
    }

    /// Brings a fresh cycle to the point where the database is open and nothing is queued.
    static func opened(_ cycle: inout WriterCycle, at now: Duration) {
        #expect(cycle.next(now: now, wallMilliseconds: wall) == .open(retentionCutoff: nil))
        cycle.opened(at: now)
        #expect(cycle.next(now: now, wallMilliseconds: wall) == .write(insert: false))
        _ = cycle.wrote(at: now)
    }

    /// What the driver does after a wait: hands the cycle `count` queued records.
    static func take(_ count: Int, into cycle: inout WriterCycle, dropped: Int = 0, stopDeadline: Duration? = nil) {
        var queue = (0..<count).map { Sample.record(at: Sample.baseTime + Int64($0)) }
        cycle.take(&queue, droppedRecords: dropped, stopDeadline: stopDeadline)
        #expect(queue.isEmpty)
    }

    @Test("a new writer opens first, reports the open with a write of nothing, then waits for records and writes them")
    func startThenWrite() {
        let clock = ManualClock()
        var cycle = Self.cycle()
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: false))
        #expect(cycle.wrote(at: clock.now) == (records: 0, droppedRecords: 0))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: nil, wakingForRecords: true))

        Self.take(3, into: &cycle, dropped: 2)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.batch.count == 3)
        #expect(cycle.droppedToRecord == 2)
        #expect(cycle.wrote(at: clock.now) == (records: 3, droppedRecords: 2))
        #expect(cycle.batch.isEmpty)
        #expect(cycle.droppedToRecord == 0)
    }

    @Test("refused records alone make a write, so the database counts them")
    func droppedRecordsAlone() {
        let clock = ManualClock()
        var cycle = Self.cycle()
        Self.opened(&cycle, at: clock.now)
        Self.take(0, into: &cycle, dropped: 4)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.wrote(at: clock.now) == (records: 0, droppedRecords: 4))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: nil, wakingForRecords: true))
    }

    @Test("each failure in a row doubles the wait before the next attempt, up to the maximum; records arriving meanwhile wait for it")
    func backoffDoublesUpToTheMaximum() {
        var clock = ManualClock()
        var cycle = Self.cycle(initialRetryDelay: .seconds(1), maximumRetryDelay: .seconds(5))
        var waits: [Duration] = []
        for attempt in 0..<6 {
            #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
            cycle.failed(at: clock.now)
            guard case .wait(until: let until?, wakingForRecords: false) = cycle.next(now: clock.now, wallMilliseconds: Self.wall) else {
                Issue.record("no backoff after failure \(attempt + 1)")
                return
            }
            let delay = until - clock.now
            waits.append(delay)
            // Records queued during the backoff do not end it: the writer takes them when it ends.
            clock.advance(by: delay - .milliseconds(1))
            Self.take(2, into: &cycle)
            #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: until, wakingForRecords: false))
            clock.advance(by: .milliseconds(1))
        }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5)])

        // The attempt that works writes everything that waited.
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.wrote(at: clock.now).records == 12)
    }

    @Test("a success ends the backoff: the next failure waits the initial delay again")
    func successResetsTheBackoff() {
        var clock = ManualClock()
        var cycle = Self.cycle(initialRetryDelay: .milliseconds(500), maximumRetryDelay: .seconds(5))
        Self.opened(&cycle, at: clock.now)
        Self.take(1, into: &cycle)
        for delay in [Duration.milliseconds(500), .seconds(1), .seconds(2)] {
            cycle.failed(at: clock.now)
            #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + delay, wakingForRecords: false))
            clock.advance(by: delay)
            #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        }
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        _ = cycle.wrote(at: clock.now)

        Self.take(1, into: &cycle)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        cycle.failed(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + .milliseconds(500), wakingForRecords: false))
    }

    @Test("a maximum below the initial delay caps the first wait too")
    func maximumBelowInitial() {
        let clock = ManualClock()
        var cycle = Self.cycle(initialRetryDelay: .seconds(3), maximumRetryDelay: .seconds(2))
        cycle.failed(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + .seconds(2), wakingForRecords: false))
    }

    @Test("retention runs at open and then every interval, cutting at the start of the UTC day retentionDays before the wall time")
    func retentionFallsDue() {
        var clock = ManualClock()
        var cycle = Self.cycle(retentionDays: 7, retentionInterval: .seconds(3600))
        // 2026-11-05T13:00Z less 7 days is 2026-10-29T13:00Z, whose day starts at 2026-10-29T00:00Z.
        let cutoff = Self.wall - 7 * Self.day - 13 * 3_600_000
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: cutoff))
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: false))
        _ = cycle.wrote(at: clock.now)
        let due = clock.now + .seconds(3600)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: due, wakingForRecords: true))

        clock.advance(by: .seconds(3599))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: due, wakingForRecords: true))
        clock.advance(by: .seconds(1))
        // Records due at the same time are written first; the cut-off follows the wall time given.
        Self.take(1, into: &cycle)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        _ = cycle.wrote(at: clock.now)
        let nextDay = Self.wall + 11 * 3_600_000
        #expect(cycle.next(now: clock.now, wallMilliseconds: nextDay) == .applyRetention(cutoff: cutoff + Self.day))
        cycle.retained(at: clock.now)
        // The pause after that small batch comes first, then the wait for the next run.
        clock.advance(by: WriterCycle.coalescingPause)
        #expect(cycle.next(now: clock.now, wallMilliseconds: nextDay) == .wait(until: due + .seconds(3600), wakingForRecords: true))
    }

    @Test("a failed retention run backs off like a failed write, and the reopening runs retention again")
    func retentionFailure() {
        var clock = ManualClock()
        var cycle = Self.cycle(retentionDays: 1, retentionInterval: .seconds(60))
        let cutoff = Self.wall - Self.day - 13 * 3_600_000
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: cutoff))
        cycle.opened(at: clock.now)
        _ = cycle.wrote(at: clock.now)
        clock.advance(by: .seconds(60))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .applyRetention(cutoff: cutoff))
        cycle.failed(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + .seconds(1), wakingForRecords: false))
        clock.advance(by: .seconds(1))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: cutoff))
    }

    @Test("retention 0 never deletes: no cut-off at open, no timed wake-up")
    func noRetention() {
        var clock = ManualClock()
        var cycle = Self.cycle(retentionDays: 0, retentionInterval: .seconds(1))
        Self.opened(&cycle, at: clock.now)
        clock.advance(by: .seconds(86_400))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: nil, wakingForRecords: true))
    }

    @Test("after a small batch the writer pauses without waking for records; not after a large batch, nor while stopping")
    func coalescingPause() {
        var clock = ManualClock()
        var cycle = Self.cycle()
        Self.opened(&cycle, at: clock.now)

        Self.take(10, into: &cycle)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        _ = cycle.wrote(at: clock.now)
        let end = clock.now + WriterCycle.coalescingPause
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: end, wakingForRecords: false))
        clock.advance(by: WriterCycle.coalescingPause / 2)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: end, wakingForRecords: false))
        clock.advance(by: WriterCycle.coalescingPause / 2)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: nil, wakingForRecords: true))

        Self.take(WriterCycle.coalescingBatchSize, into: &cycle)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        _ = cycle.wrote(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: nil, wakingForRecords: true))

        Self.take(WriterCycle.coalescingBatchSize - 1, into: &cycle)
        _ = cycle.wrote(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + WriterCycle.coalescingPause, wakingForRecords: false))

        clock.advance(by: WriterCycle.coalescingPause)
        Self.take(10, into: &cycle, stopDeadline: clock.now + .seconds(10))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        _ = cycle.wrote(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .finish)
    }

    @Test("a stop with a healthy database writes the batch and the refused count, then finishes; one with nothing queued finishes at once")
    func stopWritesEverything() {
        let clock = ManualClock()
        var cycle = Self.cycle()
        Self.opened(&cycle, at: clock.now)
        Self.take(5, into: &cycle, dropped: 1, stopDeadline: clock.now + .seconds(10))
        #expect(cycle.isStopping)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.wrote(at: clock.now) == (records: 5, droppedRecords: 1))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .finish)

        var idle = Self.cycle()
        Self.opened(&idle, at: clock.now)
        Self.take(0, into: &idle, stopDeadline: clock.now)
        #expect(idle.next(now: clock.now, wallMilliseconds: Self.wall) == .finish)
    }

    @Test("a stop while the database fails: retries go on until the deadline, one last attempt at it, then what is left is abandoned")
    func stopDeadlineWhileFailing() {
        var clock = ManualClock()
        var cycle = Self.cycle(initialRetryDelay: .seconds(1), maximumRetryDelay: .seconds(5))
        Self.opened(&cycle, at: clock.now)
        let deadline = clock.now + .seconds(3)
        Self.take(5, into: &cycle, stopDeadline: deadline)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        cycle.failed(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: clock.now + .seconds(1), wakingForRecords: false))
        clock.advance(by: .seconds(1))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.failed(at: clock.now)
        // The next retry would be 2 s later, at the deadline: the wait ends there either way.
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: deadline, wakingForRecords: false))
        clock.advance(by: .seconds(2))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.failed(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .giveUp(abandoned: 5))

        // A deadline that falls inside a backoff ends the wait there and gives up at once.
        var short = Self.cycle(initialRetryDelay: .seconds(4), maximumRetryDelay: .seconds(5))
        Self.opened(&short, at: clock.now)
        Self.take(2, into: &short)
        short.failed(at: clock.now)
        let soon = clock.now + .seconds(1)
        Self.take(1, into: &short, stopDeadline: soon)
        #expect(short.next(now: clock.now, wallMilliseconds: Self.wall) == .wait(until: soon, wakingForRecords: false))
        clock.advance(by: .seconds(1))
        #expect(short.next(now: clock.now, wallMilliseconds: Self.wall) == .giveUp(abandoned: 3))
    }

    @Test("a database that comes back before the stop's deadline gets everything written")
    func stopWhileFailingThenRecovering() {
        var clock = ManualClock()
        var cycle = Self.cycle()
        Self.opened(&cycle, at: clock.now)
        Self.take(4, into: &cycle, stopDeadline: clock.now + .seconds(10))
        cycle.failed(at: clock.now)
        clock.advance(by: .seconds(1))
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.wrote(at: clock.now).records == 4)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .finish)
    }

    @Test("a store whose file went is opened again at once, and the batch it held is written to the new one")
    func lostStoreReopens() {
        let clock = ManualClock()
        var cycle = Self.cycle()
        Self.opened(&cycle, at: clock.now)
        Self.take(3, into: &cycle)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        cycle.storeLost()
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .open(retentionCutoff: nil))
        cycle.opened(at: clock.now)
        #expect(cycle.next(now: clock.now, wallMilliseconds: Self.wall) == .write(insert: true))
        #expect(cycle.wrote(at: clock.now).records == 3)
    }
}

/// A clock that moves only when told to, so each of the writer's deadlines can be reached exactly.
/// Its time is what `WriterCycle` takes: a duration since the writer started.
struct ManualClock {
    private(set) var now = Duration.zero

    mutating func advance(by duration: Duration) {
        now += duration
    }
}
