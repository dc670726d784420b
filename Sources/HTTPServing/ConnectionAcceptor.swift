import BlockingThreads
import Glibc
import Logging
import Synchronization

/// The server's own accept loop: one thread that takes connections off the listening socket, asks
/// the registry whether each may in, hands the admitted ones to a libmicrohttpd daemon, and every
/// half second closes the connections that trickle.
///
/// libmicrohttpd listens on no socket of its own (`MHD_USE_NO_LISTEN_SOCKET`): so a stop can stop
/// accepting without touching the socket (shutting it down would kill a socket the service manager
/// passed in and keeps for the next process), and so linkhost chooses which connection gives way
/// at the limit.
final class ConnectionAcceptor: Sendable {
    /// Hands an admitted connection to libmicrohttpd; false when it refused (it closed the socket).
    typealias HandOver = @Sendable (_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, ConnectionEntry) -> Bool

    private let listener: Int32
    private let closesListener: Bool
    /// The pipe that ends the loop: `stop` writes a byte into `wakeWriter`.
    private let wake: Int32
    private let wakeWriter: Int32
    private let registry: ConnectionRegistry
    private let counters: HTTPServerCounters
    private let handOver: HandOver
    /// Written to a refused plain-HTTP connection before it is closed (nothing for TLS: those bytes
    /// would be no TLS record).
    private let refusal: [UInt8]?
    private let logger: Logger
    private let thread = Mutex<pthread_t?>(nil)
    static let sweepMilliseconds: Int32 = 500

    /// - Parameter closesListener: false for a socket the service manager passed in: the loop stops
    ///   polling it and leaves it open for the next process.
    init(
        listener: Int32, closesListener: Bool, registry: ConnectionRegistry, counters: HTTPServerCounters, refusesWithResponse: Bool, logger: Logger,
        handOver: @escaping HandOver
    ) throws(HTTPServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .cannotStart("pipe() failed: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.listener = listener
        self.closesListener = closesListener
        wake = ends[0]
        wakeWriter = ends[1]
        self.registry = registry
        self.counters = counters
        self.handOver = handOver
        self.logger = logger
        refusal =
            refusesWithResponse
            ? ConnectionRegistry.closingAnswer(
                "503 Service Unavailable", "The server holds all the connections it can; try again in a moment.", extraHeaders: "Retry-After: 1\r\n")
            : nil
    }

    /// Starts the loop on its own thread.
    func start() throws(HTTPServerError) {
        let flags = fcntl(listener, F_GETFL)
        _ = fcntl(listener, F_SETFL, flags | O_NONBLOCK)
        switch BlockingThread.start(named: "linkhost-accept", { [self] in run() }) {
        case .success(let started): thread.withLock { $0 = started }
        case .failure(let failure):
            close(wake)
            close(wakeWriter)
            throw .cannotStart("the accept thread did not start: \(failure.reason)")
        }
    }

    /// Stops accepting and returns once the loop has ended; connections already accepted stay.
    /// New connections wait in the socket's backlog (for a passed socket, for the next process) or
    /// are refused by the kernel once the socket is closed.
    func stop() {
        guard
            let running = thread.withLock({ state -> pthread_t? in
                defer { state = nil }
                return state
            })
        else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        pthread_join(running, nil)
        close(wake)
        close(wakeWriter)
        if closesListener { close(listener) }
    }

    private func run() {
        var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        var nextSweep = Self.now() + Int64(Self.sweepMilliseconds)
        var resumeAccepting: Int64?
        var notices = RefusalNotices()
        while true {
            let now = Self.now()
            if let resume = resumeAccepting, now >= resume {
                polled[0].fd = listener
                resumeAccepting = nil
            }
            let wait = max(0, min(nextSweep, resumeAccepting ?? .max) - now)
            let ready = poll(&polled, 2, Int32(min(wait, Int64(Self.sweepMilliseconds))))
            if ready < 0, errno != EINTR { break }
            if polled[1].revents != 0 {
                // Stopping. A connection the kernel completed before now is open to its client,
                // which may already have sent a request on it: take those in, so the drain answers
                // them, rather than reset them with the socket. An inherited socket keeps its queue
                // for the next process, which serves it whole.
                // Batches of 256 up to the longest queue a listener may have (65,535); a batch on an
                // empty queue returns at once.
                if closesListener {
                    for _ in 0..<256 {
                        if case .outOfDescriptors = acceptWaiting() { break }
                    }
                }
                break
            }
            if polled[0].revents & Int16(POLLIN) != 0 {
                switch acceptWaiting() {
                case .drained: break
                case .refused(let count): notices.refused(count)
                case .outOfDescriptors(let reason, let refusedCount):
                    notices.refused(refusedCount)
                    // The socket stays readable while the process has no descriptor to spare: poll
                    // it again only in a moment, or the loop would spin.
                    polled[0].fd = -1
                    resumeAccepting = Self.now() + 100
                    logger.warning("cannot accept connections: \(reason); raise the descriptor limit (ulimit -n) or lower server.connections")
                }
            }
            let after = Self.now()
            if after >= nextSweep {
                registry.sweep(at: after) { counters.closedByServer.add(1, ordering: .relaxed) }
                nextSweep = after + Int64(Self.sweepMilliseconds)
                if let count = notices.due(at: after) {
                    logger.notice("refused \(count) connection(s) at the connection limits (server.connections, server.connectionsPerAddress)")
                }
            }
        }
    }

    private enum Batch {
        case drained
        case refused(Int)
        case outOfDescriptors(String, refused: Int)
    }

    /// Accepts what waits, up to a batch, so the wake descriptor and the sweep are never starved.
    private func acceptWaiting() -> Batch {
        var refused = 0
        for _ in 0..<256 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard descriptor >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return refused == 0 ? .drained : .refused(refused)
                case EINTR, ECONNABORTED, EPROTO, EPERM: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors(String(cString: strerror(errno)), refused: refused)
                default: return refused == 0 ? .drained : .refused(refused)
                }
            }
            // Glibc's module does not export accept4: close-on-exec is set after (libmicrohttpd makes
            // the socket non-blocking itself).
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let admission = withUnsafePointer(to: &storage) { registry.admit(descriptor: descriptor, peer: PeerKey(UnsafeRawPointer($0)), at: Self.now()) }
            switch admission {
            case .admitted(let entry, let displaced):
                if displaced { counters.closedByServer.add(1, ordering: .relaxed) }
                let taken = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handOver(descriptor, $0, length, entry) }
                }
                if !taken { registry.remove(entry) }
            case .refused:
                // Counted first: whoever reads the answer may look at the counters next.
                counters.refused.add(1, ordering: .relaxed)
                if let refusal { _ = refusal.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) } }
                close(descriptor)
                refused += 1
            }
        }
        return refused == 0 ? .drained : .refused(refused)
    }

    /// Now on the monotonic clock, in the registry's milliseconds (the workers' clock too).
    static func now() -> Int64 { ConnectionEntry.milliseconds(ExchangeState.monotonicNow()) }
}

/// How often the accept loop says it refused connections: at most once per interval, with the count
/// since it last said so (a flood of refusals must not flood the log).
package struct RefusalNotices: Sendable {
    package static let intervalMilliseconds: Int64 = 10_000
    private var unreported = 0
    private var lastReported: Int64?

    package init() {}

    package mutating func refused(_ count: Int) { unreported += count }

    /// The count to report now, if any is waiting and the last report is an interval old.
    package mutating func due(at now: Int64) -> Int? {
        guard unreported > 0, lastReported.map({ now - $0 >= Self.intervalMilliseconds }) ?? true else { return nil }
        defer {
            unreported = 0
            lastReported = now
        }
        return unreported
    }
}
