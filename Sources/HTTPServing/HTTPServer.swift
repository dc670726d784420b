internal import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a pool of worker threads, each with its own epoll loop,
/// calling a `Sendable` responder for every request.
///
/// Lifecycle: `start()` binds and begins serving (the bound port is then in `port`); `stop()` stops
/// accepting, lets requests in flight finish (up to the grace period) and closes everything. Both
/// may be called from any thread, and `stop()` is idempotent.
///
/// A started server keeps itself alive until `stop()`: libmicrohttpd's threads hold a pointer to it,
/// so dropping the last Swift reference does not stop it (and must not free it). After `stop()`
/// nothing refers to it from C any more and it is released like any other object.
public final class HTTPServer: Sendable {
    @usableFromInline typealias ExchangeCompletion = @Sendable (HTTPExchange) -> Void

    public let configuration: HTTPServerConfiguration
    /// Calls the responder and, when there is an observer, returns the call that reports the ended
    /// exchange with the responder's annotation captured typed (no casts between the two ends).
    let answer: @Sendable (HTTPRequest) -> (HTTPResponse, ExchangeCompletion?)
    /// Reports an exchange the server answered itself (a body over the limit), with no annotation.
    let completeUnanswered: ExchangeCompletion?
    let logger: Logger

    /// In flight, sent, cut short and open connections, kept by the callbacks.
    let counters: HTTPServerCounters
    private let lifecycle = Mutex(Lifecycle.idle)
    private let boundPort = Atomic<Int>(0)

    private enum Lifecycle: @unchecked Sendable {
        // The daemon pointer is only touched under the mutex; MHD's own calls on it are thread-safe.
        case idle
        /// `listener` is the descriptor libmicrohttpd listens on (it owns and closes it).
        case running(daemon: OpaquePointer, listener: Int32, retainedSelf: Unmanaged<HTTPServer>, tlsStrings: [UnsafeMutablePointer<CChar>])
        case stopped
    }

    /// - Parameters:
    ///   - counters: where the server counts its requests and connections (made by the caller when
    ///     something else, a health report, reads them too).
    ///   - answerObserver: called on the worker thread with each answer the responder gave, before
    ///     the response is queued (so before a byte of it can reach the client), with its status; it
    ///     may change the annotation the completion observer then gets (a request log notes where it
    ///     put the exchange's record). It must be quick and must not block.
    ///   - completionObserver: called on a worker thread when each exchange ends, after the response
    ///     was sent or the connection was lost, with the responder's annotation (`nil` when the server
    ///     answered by itself, as with an oversized body); it must be quick (hand work to another thread).
    ///
    /// Inlinable so the two closures are compiled for the caller's responder: made here, in the
    /// generic body, every request paid for the annotation's metadata lookups and value-witness
    /// copies (about 3,000 instructions, measured with `bench/instructions`).
    @inlinable
    public convenience init<Responder: HTTPResponder>(
        configuration: HTTPServerConfiguration,
        logger: Logger = Logger(label: "linkhost.http"),
        counters: HTTPServerCounters = HTTPServerCounters(),
        responder: Responder,
        completionObserver: (@Sendable (HTTPExchange, Responder.Annotation?) -> Void)? = nil,
        answerObserver: (@Sendable (HTTPRequest, Int, inout Responder.Annotation) -> Void)? = nil
    ) {
        if let completionObserver {
            self.init(
                configuration: configuration, logger: logger, counters: counters,
                answer: { request in
                    var answered = responder.respond(to: request)
                    answerObserver?(request, answered.response.status, &answered.annotation)
                    let annotation = answered.annotation
                    return (answered.response, { exchange in completionObserver(exchange, annotation) })
                },
                completeUnanswered: { exchange in completionObserver(exchange, nil) })
        } else {
            self.init(
                configuration: configuration, logger: logger, counters: counters,
                answer: { request in (responder.respond(to: request).response, nil) }, completeUnanswered: nil)
        }
    }

    @usableFromInline
    init(
        configuration: HTTPServerConfiguration, logger: Logger, counters: HTTPServerCounters,
        answer: @escaping @Sendable (HTTPRequest) -> (HTTPResponse, ExchangeCompletion?), completeUnanswered: ExchangeCompletion?
    ) {
        self.configuration = configuration
        self.logger = logger
        self.counters = counters
        self.answer = answer
        self.completeUnanswered = completeUnanswered
    }

    /// Whether libmicrohttpd keeps SIGPIPE from its own writes (it sends with MSG_NOSIGNAL), so a
    /// program embedding the server needs no process-wide signal setting for it.
    package static var suppressesBrokenPipeSignals: Bool {
        MHD_is_feature_supported(MHD_FEATURE.FEATURE_AUTOSUPPRESS_SIGPIPE) == MHD_Result.YES
    }

    /// The port the server listens on (the real one when configured with port 0); 0 before `start()`.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// Whether the server is accepting requests.
    public var isRunning: Bool {
        lifecycle.withLock { if case .running = $0 { true } else { false } }
    }

    /// Counters for health checks.
    public var statistics: HTTPServerStatistics { counters.statistics }

    /// Binds the socket and starts the worker threads. Throws with a cause an operator can act on.
    public func start() throws(HTTPServerError) {
        if let problem = configuration.problem() { throw .invalidConfiguration(problem) }
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else { throw .alreadyStarted }
            // No process-wide settings here (SIGPIPE, descriptor limits): they are the program's to
            // make (`linkhost serve` does). libmicrohttpd sends with MSG_NOSIGNAL, so a peer that
            // closed its socket never raises SIGPIPE in a program that embeds this server.
            let socket = try ListeningSocket.open(address: configuration.address, port: configuration.port, backlog: configuration.listenBacklog)
            // libmicrohttpd gets a duplicate of the socket, never the one we opened: on some failure
            // paths it closes the socket it was given and on others it does not, so closing ours
            // after a failure could close a descriptor number another thread has reused meanwhile.
            // With a duplicate, ours is always ours to close, and `closeIfStillOurs` tells whether
            // the duplicate still needs closing.
            let handedOver = fcntl(socket.descriptor, F_DUPFD_CLOEXEC, 0)
            guard handedOver >= 0 else {
                close(socket.descriptor)
                throw .cannotStart("duplicating the listening socket failed: \(String(cString: strerror(errno)))")
            }
            let failedStart = { (tlsStrings: [UnsafeMutablePointer<CChar>]) in
                ListeningSocket.closeIfStillOurs(handedOver, original: socket.descriptor)
                close(socket.descriptor)
                for string in tlsStrings { free(string) }
            }
            let retained = Unmanaged.passRetained(self)
            let context = retained.toOpaque()
            var options: [MHD_OptionItem] = [
                // The logger goes first so libmicrohttpd reports problems with later options through it.
                linkhost_mhd_option(MHD_OPTION.EXTERNAL_LOGGER, unsafeBitCast(MHDCallbacks.log, to: Int.self), context),
                linkhost_mhd_option(MHD_OPTION.LISTEN_SOCKET, Int(handedOver), nil),
                linkhost_mhd_option(MHD_OPTION.CONNECTION_LIMIT, configuration.connectionLimit, nil),
                linkhost_mhd_option(MHD_OPTION.PER_IP_CONNECTION_LIMIT, configuration.perAddressConnectionLimit, nil),
                linkhost_mhd_option(MHD_OPTION.CONNECTION_TIMEOUT, configuration.connectionTimeoutSeconds, nil),
                linkhost_mhd_option(MHD_OPTION.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit, nil),
                linkhost_mhd_option(MHD_OPTION.URI_LOG_CALLBACK, unsafeBitCast(MHDCallbacks.requestStarted, to: Int.self), context),
                linkhost_mhd_option(MHD_OPTION.NOTIFY_COMPLETED, unsafeBitCast(MHDCallbacks.requestCompleted, to: Int.self), context),
                linkhost_mhd_option(MHD_OPTION.NOTIFY_CONNECTION, unsafeBitCast(MHDCallbacks.connectionChanged, to: Int.self), context),
            ]
            // C copies of the PEM text and priorities, alive until stop (libmicrohttpd keeps pointers).
            var tlsStrings: [UnsafeMutablePointer<CChar>] = []
            if let tls = configuration.tls {
                guard MHD_is_feature_supported(MHD_FEATURE.FEATURE_TLS) == MHD_Result.YES else {
                    retained.release()
                    failedStart([])
                    throw .cannotStart("this libmicrohttpd was built without TLS support")
                }
                tlsStrings = [strdup(tls.certificateChainPEM), strdup(tls.privateKeyPEM), strdup(tls.priorities)]
                options.append(linkhost_mhd_option(MHD_OPTION.HTTPS_MEM_CERT, 0, tlsStrings[0]))
                options.append(linkhost_mhd_option(MHD_OPTION.HTTPS_MEM_KEY, 0, tlsStrings[1]))
                options.append(linkhost_mhd_option(MHD_OPTION.HTTPS_PRIORITIES, 0, tlsStrings[2]))
            }
            if configuration.threadCount > 1 && !configuration.threadPerConnection {
                options.append(linkhost_mhd_option(MHD_OPTION.THREAD_POOL_SIZE, configuration.threadCount, nil))
            }
            options.append(linkhost_mhd_option(MHD_OPTION.END, 0, nil))
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            if configuration.threadPerConnection {
                // epoll is the pool's; a thread per connection polls its own socket.
                flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
            } else {
                flags |= MHD_USE_EPOLL.rawValue
                if configuration.turbo { flags |= MHD_USE_TURBO.rawValue }
            }
            if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
            let daemon = options.withUnsafeMutableBufferPointer { buffer in
                linkhost_mhd_start(flags, MHDCallbacks.handleRequest, context, buffer.baseAddress)
            }
            guard let daemon else {
                retained.release()
                failedStart(tlsStrings)
                throw .cannotStart(
                    configuration.tls == nil
                        ? "libmicrohttpd refused the options (see the log above for its reason)"
                        : configuration.tls?.priorities == TLSCredentials.intermediatePriorities
                            ? "libmicrohttpd could not use the TLS certificate and key (are they PEM, and does the key belong to the certificate?)"
                            : "libmicrohttpd could not use the TLS certificate and key or the TLS priority string (are they PEM, does the key belong to the certificate, and is the priority string one GnuTLS accepts?)"
                )
            }
            // The daemon owns the duplicate now; our own descriptor is no longer needed.
            close(socket.descriptor)
            boundPort.store(socket.port, ordering: .releasing)
            state = .running(daemon: daemon, listener: handedOver, retainedSelf: retained, tlsStrings: tlsStrings)
        }
    }

    /// Stops gracefully: no new connections, requests in flight finish (up to
    /// `shutdownGraceSeconds`), then every connection is closed. Returns when all of that is done.
    public func stop() {
        let running: (OpaquePointer, Int32, Unmanaged<HTTPServer>, [UnsafeMutablePointer<CChar>])? = lifecycle.withLock { state in
            guard case .running(let daemon, let listener, let retained, let tlsStrings) = state else {
                if case .idle = state { state = .stopped }
                return nil
            }
            state = .stopped
            return (daemon, listener, retained, tlsStrings)
        }
        guard let (daemon, listener, retained, tlsStrings) = running else { return }
        // New connections are refused by shutting the listening socket down, not by
        // `MHD_quiesce_daemon`: in libmicrohttpd 0.9.75 quiescing a thread pool with epoll races with
        // the workers (both remove the socket from a worker's epoll set, and whichever loses panics
        // with "Failed to remove listen FD from epoll set", seen in CI). After `shutdown` the kernel
        // refuses new connections and workers skip the socket (its epoll event is a hang-up, which
        // libmicrohttpd ignores), while requests in flight go on; the descriptor stays libmicrohttpd's
        // and `MHD_stop_daemon` closes it.
        _ = shutdown(listener, Int32(SHUT_RDWR))
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.shutdownGraceSeconds * 1000))
        while counters.inFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        let unfinished = counters.inFlight.load(ordering: .acquiring)
        if unfinished > 0 {
            logger.warning("closing \(unfinished) request(s) still in flight after the \(configuration.shutdownGraceSeconds)s grace period")
        }
        MHD_stop_daemon(daemon)
        for string in tlsStrings { free(string) }
        // MHD has run every completion callback by now; nothing refers to `self` through C any more.
        retained.release()
    }
}
