import Foundation
import Synchronization
import Testing

/// Runs each test (each case of a parameterized one) on a thread of its own instead of one of
/// Swift's cooperative threads: `@Suite(.ownThread)` for the suites that block — on a child
/// process, a socket, a database server, a browser.
///
/// Swift Testing runs every test on the cooperative pool, which has as many threads as cores (two
/// here). A test that blocks holds one of them for all of its wait, so two such tests stop every
/// other test, async ones included, whose awaits then resume late. On a thread of its own a
/// blocking test waits without holding the pool; at most `width` of them run at once, so a run
/// does not start dozens of child processes together on two cores.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    /// How many tests run on threads of their own at once; the others wait for a turn (without
    /// holding a thread).
    public static let width = 8

    private static let turns = Turns(Self.width)

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // The whole scope runs on the test's own thread: waiting for a turn and giving it
        // back must not need a cooperative-pool thread, or a finished test holds its turn
        // until the pool has a thread free.
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
            await Self.turns.take()
            defer { Self.turns.give() }
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test on a thread of its own (see `OwnThreadTrait`).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs each job on a new thread. A test's task runs one job at a time, so
/// the test runs on one thread at a time; child tasks get threads of their own, so a test that
/// blocks one of its tasks while waiting for another cannot lock itself up.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A counting semaphore for async callers: `take` waits (suspended, holding no thread) until one
/// of `count` turns is free.
final class Turns: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(free: count))
    }

    func take() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
