import Foundation
import Synchronization

/// The process's own handler for the signals `serve` acts on: it only writes the signal's number to
/// a pipe, and a thread of its own reads the pipe and runs the Swift side.
///
/// Not `DispatchSource.makeSignalSource`: on Linux, libdispatch installs its handler later, from its
/// manager thread, so for a moment after `resume()` the signal is still ignored and one sent then is
/// lost for good (a `serve` signalled the moment it printed "listening" once never stopped; a
/// program that signals itself right after `resume()` loses the signal every time). `sigaction`
/// here is in force before `handle(_:with:)` returns.
public final class SignalPipe: Sendable {
    /// The one pipe of this process (a signal handler is process-wide), made on first use.
    public static func shared() throws -> SignalPipe {
        try instance.withLock { instance in
            if let instance { return instance }
            let made = try SignalPipe()
            instance = made
            return made
        }
    }

    private static let instance = Mutex<SignalPipe?>(nil)

    private let actions = Mutex<[Int32: @Sendable (Int32) -> Void]>([:])
    private let readEnd: Int32

    private init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SignalPipeError(reason: String(cString: strerror(errno)))
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The handler must never block, even if nobody reads for a while: a full pipe drops the byte,
        // and the reader still has one of the same signal to act on.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in readLoop() }
        thread.name = "linkhost-signals"
        thread.start()
    }

    /// Catches each of `numbers` from now on and runs `action` (on the pipe's thread) for every one
    /// that arrives. A later call for the same signal replaces its action.
    public func handle(_ numbers: [Int32], with action: @escaping @Sendable (Int32) -> Void) {
        actions.withLock { table in
            for number in numbers { table[number] = action }
        }
        for number in numbers {
            var handler = sigaction()
            handler.__sigaction_handler.sa_handler = forwardSignalToPipe
            sigfillset(&handler.sa_mask)
            handler.sa_flags = SA_RESTART
            sigaction(number, &handler, nil)
        }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            for byte in buffer.prefix(count) {
                let number = Int32(byte)
                actions.withLock { $0[number] }?(number)
            }
        }
    }
}

/// Where the handler writes; set once, before any handler is installed.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The signal handler: async-signal-safe (an atomic load and `write`), and it keeps `errno` intact
/// for the code it interrupted.
private func forwardSignalToPipe(_ number: Int32) {
    let savedError = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = savedError
}

/// The pipe could not be made (the process is out of descriptors).
public struct SignalPipeError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot make the pipe that catches signals: \(reason)" }
}
