import Glibc
import TLSCertificates

/// One request's way through the server, from its first line to the end of the exchange: a small
/// state machine that libmicrohttpd's callbacks feed (`MHDCallbacks`) and that tells them what to
/// do next. It never reads a clock or touches libmicrohttpd, so a test drives it step by step with
/// the instants it chooses.
///
/// Instants are `Duration`s on the monotonic clock (`monotonicNow()`), not `ContinuousClock.Instant`:
/// outside the standard library that type is opaque (not `@frozen`), so every copy and `nil` test of
/// the optional one kept here was a call through its value witnesses — about 2,000 instructions a
/// request, measured with `bench/instructions`. `Duration` is `@frozen`: two integers.
///
/// libmicrohttpd calls the handler several times per request (head, body chunks, end of body) on
/// the one thread that owns the connection, so the state needs no locking. For the same reason its
/// stored properties skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`): each
/// access is a plain read or write on that one thread, never held open across another, and the
/// checks ran fifteen times a request (docs/performance.md).
package final class ExchangeState {
    /// Where the request is.
    package enum Phase: Equatable {
        /// Only the request line has been read.
        case started
        /// The head is in; body chunks (if any) are being kept.
        case readingBody
        /// The body went over the limit: the rest is read and dropped, then 413 goes out.
        case discardingBody
        /// A response was queued.
        case answered
        /// libmicrohttpd is done with the request.
        case ended
    }

    /// What to do once the head is in.
    package enum HeadStep: Equatable {
        /// Read the body (possibly empty) and answer at its end.
        case readBody
        /// The declared length is over the limit: answer 413 now.
        case refuseTooLarge
        /// The head is malformed: answer 400 now and close.
        case refuseMalformed(HeadFault)
    }

    /// What to do with a chunk of body.
    package enum BodyStep: Equatable {
        case keepReading
        /// The client keeps sending far past the limit: close the connection without an answer.
        case closeConnection
    }

    /// What to do when the body has ended.
    package enum EndStep: Equatable {
        /// Call the responder with the body read.
        case respond
        /// The body was over the limit: answer 413.
        case refuseTooLarge
        /// Already answered (libmicrohttpd calls once more after a response is queued).
        case nothing
    }

    /// The request target exactly as sent (copied from libmicrohttpd's buffer at the first callback).
    package let target: String
    @exclusivity(unchecked) package private(set) var phase = Phase.started
    /// When the head was read (the start of the exchange's duration).
    @exclusivity(unchecked) package private(set) var headArrivedAt: Duration?
    /// The body read so far.
    @exclusivity(unchecked) package private(set) var body: [UInt8] = []
    /// Bytes of an oversized body read and dropped so far.
    @exclusivity(unchecked) package private(set) var discardedBytes = 0
    /// The request as answered, its status and the body size sent (0 for HEAD).
    @exclusivity(unchecked) package private(set) var request: HTTPRequest?
    @exclusivity(unchecked) package private(set) var status = 0
    @exclusivity(unchecked) package private(set) var bodySize = 0
    /// Reports the ended exchange to the observer, with the responder's annotation inside.
    @exclusivity(unchecked) private(set) var completion: (@Sendable (HTTPExchange) -> Void)?
    /// Kept alive by libmicrohttpd's pointer rather than by the connection (a fallback only).
    @exclusivity(unchecked) var ownedByPointer = false
    /// Where the target lies in libmicrohttpd's read buffer (address and length), for the framing
    /// check; compared, never read.
    @exclusivity(unchecked) var targetSpan: (start: UInt, length: Int)?
    /// The head's fields, collected once when the head arrives.
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// The connection's entry in the accept loop's registry, stamped as the exchange moves on.
    @exclusivity(unchecked) var connectionEntry: ConnectionEntry?

    /// The bytes of body dropped past the limit before the connection is closed instead: 64 times
    /// the limit, and never less than 4 MiB. libmicrohttpd 0.9.75 cannot answer while it reads a
    /// body, so a chunked body over the limit gets its 413 only once it has ended: reading and
    /// dropping (what nginx calls a lingering close, bounded the same way) lets a client that sent
    /// too much see the answer, while one that never stops cannot keep the server reading. The
    /// connection's idle timeout bounds a client that stalls instead.
    package static func discardAllowance(limit: Int) -> Int { 64 * max(limit, 64 * 1024) }

    package init(target: String) {
        self.target = target
    }

    /// Now on CLOCK_MONOTONIC, as time since its (arbitrary) origin: the clock of `headArrived` and `ended`.
    package static func monotonicNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether the head has been read (the request counts as in flight from then on).
    package var hasStarted: Bool { headArrivedAt != nil }

    /// The head is in, with the body's declared `Content-Length` if any and what is wrong with the
    /// head's framing if anything is.
    package func headArrived(at instant: Duration, declaredLength: Int?, limit: Int, fault: HeadFault? = nil) -> HeadStep {
        headArrivedAt = instant
        if let fault { return .refuseMalformed(fault) }
        if let declaredLength, declaredLength > limit { return .refuseTooLarge }
        phase = .readingBody
        // The body arrives in chunks appended to one buffer, sized up front when the length is known.
        if let declaredLength, declaredLength > 0 { body.reserveCapacity(declaredLength) }
        return .readBody
    }

    /// A chunk of body arrived.
    package func bodyChunk(_ bytes: UnsafeRawBufferPointer, limit: Int) -> BodyStep {
        switch phase {
        case .readingBody:
            if body.count + bytes.count > limit {
                phase = .discardingBody
                discardedBytes = body.count + bytes.count
                body = []
            } else {
                body.append(contentsOf: bytes)
            }
        case .discardingBody:
            // libmicrohttpd 0.9.75 cannot queue an answer while it reads a body (MHD_queue_response
            // refuses in that state), so the rest is read and dropped, then 413 goes out.
            discardedBytes += bytes.count
        case .started, .answered, .ended:
            break
        }
        return phase == .discardingBody && discardedBytes > Self.discardAllowance(limit: limit) ? .closeConnection : .keepReading
    }

    /// The body has ended (libmicrohttpd calls with no data).
    package func bodyEnded() -> EndStep {
        switch phase {
        case .readingBody: .respond
        case .discardingBody: .refuseTooLarge
        case .started: .respond
        case .answered, .ended: .nothing
        }
    }

    /// The body read, handed over once (the request takes it).
    package func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    /// A response for `request` is being queued; `completion` reports the exchange when it ends.
    package func answered(_ request: HTTPRequest, status: Int, bodySize: Int, completion: (@Sendable (HTTPExchange) -> Void)?) {
        self.request = request
        self.status = status
        self.bodySize = bodySize
        self.completion = completion
        phase = .answered
    }

    /// libmicrohttpd is done with the request. Returns the exchange to report when a response was
    /// queued (with its duration from the head to `instant`), `nil` otherwise.
    package func ended(_ outcome: HTTPExchange.Outcome, at instant: Duration) -> HTTPExchange? {
        defer { phase = .ended }
        guard phase == .answered, let request, let start = headArrivedAt else { return nil }
        let elapsed = instant >= start ? instant - start : .zero
        let (seconds, attoseconds) = elapsed.components
        return HTTPExchange(
            request: request, status: status, bodySize: bodySize, outcome: outcome,
            durationNanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
    }
}

/// What the server keeps about one TCP connection: the request it is working on.
///
/// Exchange states are owned here, not by libmicrohttpd: libmicrohttpd 0.9.75 can drop a request
/// after its first line without calling the request-completed callback (seen when a query has so
/// many arguments that the connection's memory pool runs out), which would leak a state held only
/// through that callback. The connection-closed callback, which always comes, releases whatever is
/// left.
final class ConnectionState {
    /// The request in progress on this connection, from its first line to its completion.
    @exclusivity(unchecked) var current: ExchangeState?
    /// The peer's address as text, once a request has asked for it.
    @exclusivity(unchecked) var peerAddress: String?
    /// The accept loop's entry for the connection, moved along as its exchanges go.
    let entry: ConnectionEntry?
    /// Over TLS: the listener's certificate store and, once the handshake ran, the certificate it
    /// chose, kept alive until the connection closes (GnuTLS uses it for the whole session).
    let certificates: ConnectionCertificate?

    init(entry: ConnectionEntry?, certificates: ConnectionCertificate? = nil) {
        self.entry = entry
        self.certificates = certificates
    }
}
