import Foundation
import ProcessSignals
import Synchronization
import TestSupport
import Testing

/// The handlers `serve` stops and reloads with, tested in this process with SIGUSR1/SIGUSR2 (never
/// SIGTERM: a handler that failed would end the test run). Signals are raised on a thread of the
/// test's own that unblocks them first — the test runner's threads block them — so each is handled
/// before `raise` returns and lands in the pipe in the order raised.
@Suite("Process signals", .serialized)
struct ProcessSignalsTests {
    /// Runs `body` on a new thread with SIGUSR1 and SIGUSR2 unblocked, and waits for it.
    private static func onUnblockedThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR1)
            sigaddset(&unblock, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test func aSignalRaisedTheMomentTheHandlerIsInstalledIsNotLost() async throws {
        // The handler must be in force when `install` returns: libdispatch's signal sources set
        // theirs later, from their manager thread, and lose a signal sent in between (the reason
        // SignalPipe exists). So the disposition is read back before anything else runs.
        let installed = Mutex<(Result<TerminationSignal, any Error>, Int)?>(nil)
        Self.onUnblockedThread {
            let result = Result { try TerminationSignal.install([SIGUSR1]) }
            var current = sigaction()
            sigaction(SIGUSR1, nil, &current)
            let disposition = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            raise(SIGUSR1)
            installed.withLock { $0 = (result, disposition) }
        }
        let (result, disposition) = try #require(installed.withLock { $0 })
        let caught = try result.get()
        #expect(disposition != Int(bitPattern: 0) && disposition != 1, "SIG_DFL is 0 and SIG_IGN is 1: neither catches the signal")
        let received = await firstResult { await caught.wait() }
        #expect(received == SIGUSR1)
        // A signal that came before `wait()` is kept, and later ones do not change it.
        Self.onUnblockedThread { raise(SIGUSR1) }
        #expect(await caught.wait() == SIGUSR1)
    }

    @Test func hangupsThatComeDuringAReloadMergeIntoOneMoreReload() throws {
        let hangups = try HangupSignal.install(SIGUSR2)
        let runs = Mutex(0)
        let firstStarted = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        hangups.onHangup {
            let run = runs.withLock { count in
                count += 1
                return count
            }
            if run == 1 {
                firstStarted.signal()
                releaseFirst.wait()
            }
            finished.signal()
        }
        Self.onUnblockedThread { raise(SIGUSR2) }
        #expect(firstStarted.wait(timeout: .now() + 30) == .success)
        // Five more while the first runs; a marker signal after them shows the pipe's reader has
        // seen all five before the first reload is let go.
        // (Handled on the pipe's own thread, not by a task: a test process's cooperative pool can be
        // held by other tests for longer than any timeout here.)
        let markerSeen = DispatchSemaphore(value: 0)
        try SignalPipe.shared().handle([SIGUSR1]) { _ in markerSeen.signal() }
        Self.onUnblockedThread {
            for _ in 0..<5 { raise(SIGUSR2) }
            raise(SIGUSR1)
        }
        #expect(markerSeen.wait(timeout: .now() + 30) == .success)
        releaseFirst.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        // No third reload: give one every chance to start, then count.
        #expect(finished.wait(timeout: .now() + 1) == .timedOut)
        #expect(runs.withLock { $0 } == 2)

        // Once stopped, a hangup does nothing and no longer ends anything either.
        hangups.stop()
        Self.onUnblockedThread { raise(SIGUSR2) }
        #expect(finished.wait(timeout: .now() + 1) == .timedOut)
        #expect(runs.withLock { $0 } == 2)
    }
}
