internal import CMicroHTTPD
import Glibc
import Logging
import Synchronization
import TLSCertificates

/// An HTTP/1.1 server on libmicrohttpd: worker threads, each a libmicrohttpd daemon with its own
/// epoll loop, calling a `Sendable` responder for every request, fed by an accept loop of its own
/// (`ConnectionAcceptor`) that applies the connection limits and closes trickling connections.
///
/// Lifecycle: `start()` binds (or adopts a passed socket) and begins serving (the bound port is then
/// in `port`); `stop()` stops accepting, drains (answers on open connections close them), lets
/// requests in flight finish (up to the grace period) and closes everything. Both may be called from
/// any thread, and `stop()` is idempotent.
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
    /// The responder's answer before a declared body is read (`HTTPResponder.refusal(beforeBodyOf:)`).
    let refuseBeforeBody: @Sendable (HTTPRequest) -> HTTPResponse?
    let logger: Logger

    /// In flight, sent, cut short and open connections, kept by the callbacks.
    let counters: HTTPServerCounters
    private let lifecycle = Mutex(Lifecycle.idle)
    private let boundPort = Atomic<Int>(0)
    private let bound = Mutex<String>("")

    /// Every connection the accept loop handed to libmicrohttpd (limits, trickling, drain).
    let registry: ConnectionRegistry
    /// Over TLS, what each handshake chooses its certificate from: the configuration's store, or
    /// one made here and filled at start from its PEM text.
    let certificates: CertificateStore?
    private let draining = Atomic<Bool>(false)

    private enum Lifecycle: @unchecked Sendable {
        // The daemon pointers are only touched under the mutex; MHD's own calls on them are thread-safe.
        case idle
        /// One daemon per worker thread, fed by the accept loop.
        case running(daemons: [OpaquePointer], acceptor: ConnectionAcceptor, retainedSelf: Unmanaged<HTTPServer>, tlsStrings: [UnsafeMutablePointer<CChar>])
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
    /// copies (seen in `bench/instructions`).
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
                completeUnanswered: { exchange in completionObserver(exchange, nil) }, refuseBeforeBody: { responder.refusal(beforeBodyOf: $0) })
        } else {
            self.init(
                configuration: configuration, logger: logger, counters: counters,
                answer: { request in (responder.respond(to: request).response, nil) }, completeUnanswered: nil,
                refuseBeforeBody: { responder.refusal(beforeBodyOf: $0) })
        }
    }

    @usableFromInline
    init(
        configuration: HTTPServerConfiguration, logger: Logger, counters: HTTPServerCounters,
        answer: @escaping @Sendable (HTTPRequest) -> (HTTPResponse, ExchangeCompletion?), completeUnanswered: ExchangeCompletion?,
        refuseBeforeBody: @escaping @Sendable (HTTPRequest) -> HTTPResponse?
    ) {
        self.refuseBeforeBody = refuseBeforeBody
        self.configuration = configuration
        self.logger = logger
        self.counters = counters
        self.answer = answer
        self.completeUnanswered = completeUnanswered
        certificates = configuration.tls.map { $0.certificates ?? CertificateStore() }
        registry = ConnectionRegistry(
            limits: ConnectionRegistry.Limits(
                total: configuration.connectionLimit, perAddress: configuration.perAddressConnectionLimit,
                headMilliseconds: Int64(configuration.headTimeoutSeconds) * 1000, bodyBytesPerSecond: configuration.minimumBodyBytesPerSecond),
            daemons: configuration.daemonCount, timeoutNotice: configuration.tls == nil ? ConnectionRegistry.requestTimeout : nil)
    }

    /// Whether a stop is draining: every answer from now on closes its connection.
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Whether libmicrohttpd keeps SIGPIPE from its own writes (it sends with MSG_NOSIGNAL), so a
    /// program embedding the server needs no process-wide signal setting for it.
    package static var suppressesBrokenPipeSignals: Bool {
        MHD_is_feature_supported(MHD_FEATURE.FEATURE_AUTOSUPPRESS_SIGPIPE) == MHD_Result.YES
    }

    /// The port the server listens on (the real one when configured with port 0); 0 before `start()`.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// The address the listening socket is bound to (`0.0.0.0`, `::`, `127.0.0.1`); "" before
    /// `start()`. For a passed socket it is the service manager's choice, not the configuration's.
    public var boundAddress: String { bound.withLock { $0 } }

    /// Whether the server is accepting requests.
    public var isRunning: Bool {
        lifecycle.withLock { if case .running = $0 { true } else { false } }
    }

    /// Counters for health checks.
    public var statistics: HTTPServerStatistics { counters.statistics }

    /// Binds the socket (or adopts the passed one) and starts the worker threads and the accept
    /// loop. Throws with a cause an operator can act on.
    public func start() throws(HTTPServerError) {
        if let problem = configuration.problem() { throw .invalidConfiguration(problem) }
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else { throw .alreadyStarted }
            // No process-wide settings here (SIGPIPE, descriptor limits): they are the program's to
            // make (`linkhost serve` does). libmicrohttpd sends with MSG_NOSIGNAL, so a peer that
            // closed its socket never raises SIGPIPE in a program that embeds this server.
            let inherited = configuration.inheritedListener
            let socket: ListeningSocket
            if let inherited {
                socket = try ListeningSocket.adopt(inherited)
            } else {
                socket = try ListeningSocket.open(address: configuration.address, port: configuration.port, backlog: configuration.listenBacklog)
            }
            let retained = Unmanaged.passRetained(self)
            // A C copy of the priorities, alive until stop (libmicrohttpd keeps the pointer).
            var tlsStrings: [UnsafeMutablePointer<CChar>] = []
            var daemons: [OpaquePointer] = []
            let failedStart = { (reason: HTTPServerError) -> HTTPServerError in
                for daemon in daemons { MHD_stop_daemon(daemon) }
                for string in tlsStrings { free(string) }
                if inherited == nil { close(socket.descriptor) }
                retained.release()
                return reason
            }
            if let tls = configuration.tls {
                guard MHD_is_feature_supported(MHD_FEATURE.FEATURE_TLS) == MHD_Result.YES else {
                    throw failedStart(.cannotStart("this libmicrohttpd was built without TLS support"))
                }
                guard MHD_is_feature_supported(MHD_FEATURE.FEATURE_HTTPS_CERT_CALLBACK) == MHD_Result.YES else {
                    throw failedStart(.cannotStart("this libmicrohttpd cannot choose certificates per handshake (no MHD_OPTION_HTTPS_CERT_CALLBACK)"))
                }
                if tls.certificates == nil, let store = certificates {
                    do throws(TLSCertificateError) {
                        store.replaceAll(default: try ServedCertificate(chainPEM: tls.certificateChainPEM, keyPEM: tls.privateKeyPEM))
                    } catch {
                        throw failedStart(.cannotStart("could not use the TLS certificate and key: \(error)"))
                    }
                }
                MHDCallbacks.installCertificateResolver
                tlsStrings = [strdup(tls.priorities)]
            }
            for _ in 0..<configuration.daemonCount {
                guard let daemon = startDaemon(context: retained.toOpaque(), tlsStrings: tlsStrings) else {
                    throw failedStart(
                        .cannotStart(
                            configuration.tls == nil
                                ? "libmicrohttpd refused the options (see the log above for its reason)"
                                : "libmicrohttpd could not use the TLS priority string (is it one GnuTLS accepts? `gnutls-cli --priority STRING --list` says)"
                        ))
                }
                daemons.append(daemon)
            }
            let handedTo = daemons.map { UInt(bitPattern: $0) }
            let acceptor: ConnectionAcceptor
            do throws(HTTPServerError) {
                acceptor = try ConnectionAcceptor(
                    listener: socket.descriptor, closesListener: inherited == nil, registry: registry, counters: counters,
                    refusesWithResponse: configuration.tls == nil, logger: logger
                ) { descriptor, address, length, entry in
                    // libmicrohttpd closes the socket itself when it refuses it.
                    MHD_add_connection(OpaquePointer(bitPattern: handedTo[entry.daemonIndex]), descriptor, address, length) == MHD_Result.YES
                }
                try acceptor.start()
            } catch {
                throw failedStart(error)
            }
            boundPort.store(socket.port, ordering: .releasing)
            bound.withLock { $0 = socket.address }
            state = .running(daemons: daemons, acceptor: acceptor, retainedSelf: retained, tlsStrings: tlsStrings)
        }
    }

    /// One libmicrohttpd daemon with its own thread and no listening socket, or `nil` if it refused.
    private func startDaemon(context: UnsafeMutableRawPointer, tlsStrings: [UnsafeMutablePointer<CChar>]) -> OpaquePointer? {
        var options: [MHD_OptionItem] = [
            // The logger goes first so libmicrohttpd reports problems with later options through it.
            linkhost_mhd_option(MHD_OPTION.EXTERNAL_LOGGER, unsafeBitCast(MHDCallbacks.log, to: Int.self), context),
            // The registry enforces the limits before a connection gets here; this one only keeps
            // libmicrohttpd from refusing, silently, a connection the registry admitted.
            linkhost_mhd_option(MHD_OPTION.CONNECTION_LIMIT, configuration.connectionLimit + 64, nil),
            linkhost_mhd_option(MHD_OPTION.CONNECTION_TIMEOUT, configuration.connectionTimeoutSeconds, nil),
            linkhost_mhd_option(MHD_OPTION.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit, nil),
            linkhost_mhd_option(MHD_OPTION.URI_LOG_CALLBACK, unsafeBitCast(MHDCallbacks.requestStarted, to: Int.self), context),
            linkhost_mhd_option(MHD_OPTION.NOTIFY_COMPLETED, unsafeBitCast(MHDCallbacks.requestCompleted, to: Int.self), context),
            linkhost_mhd_option(MHD_OPTION.NOTIFY_CONNECTION, unsafeBitCast(MHDCallbacks.connectionChanged, to: Int.self), context),
        ]
        if let priorities = tlsStrings.first {
            // Every handshake asks the store for its certificate (by SNI), so a certificate can be
            // replaced while the listener runs; libmicrohttpd then needs no certificate of its own.
            options.append(linkhost_mhd_option(MHD_OPTION.HTTPS_CERT_CALLBACK, 0, CertificateSelection.callbackAddress))
            options.append(linkhost_mhd_option(MHD_OPTION.HTTPS_PRIORITIES, 0, priorities))
        }
        options.append(linkhost_mhd_option(MHD_OPTION.END, 0, nil))
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        if configuration.threadPerConnection {
            // epoll is for a daemon's own loop; a thread per connection polls its own socket.
            flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        } else {
            flags |= MHD_USE_EPOLL.rawValue
            if configuration.turbo { flags |= MHD_USE_TURBO.rawValue }
        }
        if !tlsStrings.isEmpty { flags |= MHD_USE_TLS.rawValue }
        return options.withUnsafeMutableBufferPointer { buffer in
            linkhost_mhd_start(flags, MHDCallbacks.handleRequest, context, buffer.baseAddress)
        }
    }

    /// Stops gracefully: stops accepting, then drains for `drainSeconds` — requests arriving on
    /// open connections are answered, each answer closing its connection — then closes the idle
    /// connections, lets requests in flight finish (all within `shutdownGraceSeconds`) and closes
    /// what is left. Returns when all of that is done. A request racing the close of a connection
    /// that was idle when the drain ended is the client's to retry (RFC 9112 §9.3.1).
    public func stop() {
        let running: ([OpaquePointer], ConnectionAcceptor, Unmanaged<HTTPServer>, [UnsafeMutablePointer<CChar>])? = lifecycle.withLock { state in
            guard case .running(let daemons, let acceptor, let retained, let tlsStrings) = state else {
                if case .idle = state { state = .stopped }
                return nil
            }
            state = .stopped
            return (daemons, acceptor, retained, tlsStrings)
        }
        guard let (daemons, acceptor, retained, tlsStrings) = running else { return }
        let began = ContinuousClock.now
        let deadline = began + .milliseconds(Int64(configuration.shutdownGraceSeconds * 1000))
        let drainEnd = min(deadline, began + .milliseconds(Int64(configuration.drainSeconds * 1000)))
        // Not `MHD_quiesce_daemon` (in 0.9.75 it races with a pool's workers and panics) and not a
        // shutdown of the listening socket (that kills a socket the service manager passed in for
        // the next process): the accept loop just stops taking connections. It stops before the
        // drain begins: answers that close their connections send clients to connect again, and
        // one connecting while the socket were still open could land in its backlog just before
        // the close resets it. Stopped first, our own socket is closed (a new connection is
        // refused) and a passed one keeps its backlog for the next process.
        acceptor.stop()
        draining.store(true, ordering: .relaxed)
        while counters.connections.load(ordering: .acquiring) > 0, ContinuousClock.now < drainEnd {
            usleep(2_000)
        }
        counters.closedByServer.add(registry.closeIdle(at: ConnectionAcceptor.now()), ordering: .relaxed)
        while counters.connections.load(ordering: .acquiring) > 0 || counters.inFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        let unfinished = counters.inFlight.load(ordering: .acquiring)
        if unfinished > 0 {
            logger.warning("closing \(unfinished) request(s) still in flight after the \(configuration.shutdownGraceSeconds)s grace period")
        }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        for string in tlsStrings { free(string) }
        // MHD has run every completion callback by now; nothing refers to `self` through C any more.
        retained.release()
    }
}
