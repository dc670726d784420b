internal import CMicroHTTPD
import Glibc
import TLSCertificates

/// The C entry points libmicrohttpd calls on its worker threads.
///
/// They live in a non-isolated enum on purpose: a closure written in top-level code would be
/// inferred `@MainActor`, and Swift 6 traps when a worker thread calls it. Each one gets back to
/// Swift objects through the context pointer (`Unmanaged`) and never throws across the C boundary.
enum MHDCallbacks {
    typealias RequestStarted = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?

    /// Called with the raw request target as soon as the request line is read. The exchange state
    /// is owned by the connection's state; libmicrohttpd gets an unowned pointer that comes back in
    /// every later callback for this request.
    static let requestStarted: RequestStarted = { _, uri, connection in
        guard let uri else { return attach(ExchangeState(target: "/"), to: connection) }
        let length = strlen(uri)
        let exchange = uri.withMemoryRebound(to: UInt8.self, capacity: length) {
            ExchangeState(target: String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self))
        }
        exchange.targetSpan = (UInt(bitPattern: uri), length)
        hideQueryFromLibmicrohttpd(uri)
        return attach(exchange, to: connection)
    }

    /// Called when a connection opens and when it closes (always, however it ends).
    static let connectionChanged: MHD_NotifyConnectionCallback = { serverPointer, connection, socketContext, code in
        guard let socketContext else { return }
        let server = serverPointer.map { Unmanaged<HTTPServer>.fromOpaque($0).takeUnretainedValue() }
        switch code {
        case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED:
            let entry = connection.flatMap { server?.registry.announce(descriptor: linkhost_mhd_connection_fd($0)) }
            let certificates = server?.certificates.map(ConnectionCertificate.init(store:))
            socketContext.pointee = Unmanaged.passRetained(ConnectionState(entry: entry, certificates: certificates)).toOpaque()
            server?.counters.connections.add(1, ordering: .relaxed)
        default:
            if let raw = socketContext.pointee {
                // Releasing the state releases a request that never completed. The registry forgets
                // the socket here, before libmicrohttpd closes it (its number may be reused after).
                let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
                if let entry = state.entry { server?.registry.remove(entry) }
                socketContext.pointee = nil
                server?.counters.connections.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Ends the query string right after its `?` in libmicrohttpd's own request-line buffer.
    ///
    /// Why: libmicrohttpd 0.9.75 parses query arguments into the connection's fixed memory pool right
    /// after this callback; a query with hundreds of arguments exhausts the pool, and its 431 answer
    /// then never reaches the client, which hangs until the connection times out. linkhost parses the
    /// query itself from the raw target copied above and never asks libmicrohttpd for arguments, so
    /// an empty argument string costs nothing and removes the failure. The buffer is libmicrohttpd's
    /// writable read buffer (it writes NULs into it itself); the pointer is only typed `const`.
    private static func hideQueryFromLibmicrohttpd(_ uri: UnsafePointer<CChar>) {
        guard let question = strchr(uri, Int32(UInt8(ascii: "?"))) else { return }
        let afterQuestion = UnsafeMutablePointer<CChar>(question) + 1
        afterQuestion.pointee = 0
    }

    /// Hands `exchange` to the connection's state and returns the pointer libmicrohttpd keeps. With no
    /// connection state (cannot happen while the connection callback is installed) libmicrohttpd's
    /// pointer keeps it alive, released at completion.
    private static func attach(_ exchange: ExchangeState, to connection: OpaquePointer?) -> UnsafeMutableRawPointer {
        if let connection, let state = connectionState(connection) {
            state.current = exchange
            exchange.connectionEntry = state.entry
            return Unmanaged.passUnretained(exchange).toOpaque()
        }
        exchange.ownedByPointer = true
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    /// The GnuTLS certificate callback's way from a session to its connection's store:
    /// libmicrohttpd 0.9.75 sets each TLS session's pointer to its `MHD_Connection`
    /// (`gnutls_session_set_ptr` in daemon.c), whose socket context is our connection state, made
    /// when the connection started and so before its handshake. Installed once, before the first
    /// TLS daemon starts (see `CertificateSelection`).
    static let installCertificateResolver: Void = CertificateSelection.install { pointer in
        connectionState(OpaquePointer(pointer))?.certificates
    }

    private static func connectionState(_ connection: OpaquePointer) -> ConnectionState? {
        guard let raw = linkhost_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Called once the head is read, again per body chunk, and once more at the end of the body.
    static let handleRequest: MHD_AccessHandlerCallback = { serverPointer, connection, _, method, version, uploadData, uploadDataSize, slot in
        guard let serverPointer, let connection, let slot else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        let exchange: ExchangeState
        if let existing = slot.pointee {
            exchange = Unmanaged<ExchangeState>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // Only if libmicrohttpd skipped the request-line callback; keep the same ownership rules.
            exchange = ExchangeState(target: "/")
            slot.pointee = attach(exchange, to: connection)
        }
        let limit = server.configuration.maximumBodySize

        if !exchange.hasStarted {
            server.counters.inFlight.add(1, ordering: .relaxed)
            let head = collectHead(of: connection)
            exchange.headers = head.headers
            let fault = HeadFault.of(
                version: version.map(text(of:)) ?? "HTTP/1.1", hostFields: head.hostFields, hiddenBytesInFields: head.hiddenBytes,
                requestLineIntact: requestLineIsIntact(method: method, target: exchange.targetSpan, version: version), framing: head.framing)
            let declaredLength = head.contentLength.flatMap { Int($0) }
            let now = ExchangeState.monotonicNow()
            exchange.connectionEntry?.enter(.readingBody, at: ConnectionEntry.milliseconds(now))
            switch exchange.headArrived(at: now, declaredLength: declaredLength, limit: limit, fault: fault) {
            case .refuseMalformed(let fault):
                return respond(server, connection, exchange, method: method, version: version, refusal: .malformed(fault))
            case .refuseTooLarge:
                return respond(server, connection, exchange, method: method, version: version, refusal: .tooLarge)
            case .readBody where (declaredLength ?? 0) > 0 || head.framing.hasTransferEncoding:
                // A body is coming: the responder may refuse from the head alone, before a byte of
                // it is read. Answered from this first call, libmicrohttpd closes the connection
                // after the answer, which is what a refusal wants.
                if let early = server.refuseBeforeBody(request(server, connection, exchange, method: method, version: version)) {
                    return respond(server, connection, exchange, method: method, version: version, refusal: .beforeBody(early))
                }
                return MHD_Result.YES
            case .readBody:
                // Answer on a later call, once libmicrohttpd has read the (possibly empty) body: a
                // response queued from this first call makes libmicrohttpd 0.9.75 close the
                // connection, losing keep-alive for every request.
                return MHD_Result.YES
            }
        }

        if let uploadDataSize, uploadDataSize.pointee > 0 {
            let size = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            exchange.connectionEntry?.bodyArrived(size)
            let step = exchange.bodyChunk(UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : size), limit: limit)
            return step == .closeConnection ? MHD_Result.NO : MHD_Result.YES
        }
        switch exchange.bodyEnded() {
        case .nothing: return MHD_Result.YES
        case .respond: return respond(server, connection, exchange, method: method, version: version, refusal: nil)
        case .refuseTooLarge: return respond(server, connection, exchange, method: method, version: version, refusal: .tooLarge)
        }
    }

    /// Called when libmicrohttpd is done with a request, however it ended.
    static let requestCompleted: MHD_RequestCompletedCallback = { serverPointer, connection, slot, termination in
        guard let serverPointer, let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        let unmanaged = Unmanaged<ExchangeState>.fromOpaque(raw)
        let exchange = unmanaged.takeUnretainedValue()
        defer {
            if exchange.ownedByPointer {
                unmanaged.release()
            } else if let connection, let state = connectionState(connection), state.current === exchange {
                state.current = nil
            }
        }
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        guard exchange.hasStarted else { return }
        let outcome = outcome(of: termination)
        if outcome == .completed {
            server.counters.sent.add(1, ordering: .relaxed)
        } else {
            server.counters.cutShort.add(1, ordering: .relaxed)
        }
        let now = ExchangeState.monotonicNow()
        // The connection's next head (or its idle time) is timed from here.
        exchange.connectionEntry?.enter(.awaitingHead, at: ConnectionEntry.milliseconds(now))
        if let ended = exchange.ended(outcome, at: now), let completion = exchange.completion {
            completion(ended)
        }
        // Decrement last, so a graceful stop that sees zero knows every observer call has returned.
        server.counters.inFlight.subtract(1, ordering: .releasing)
    }

    /// libmicrohttpd's own diagnostics, formatted and passed to the server's logger.
    static let log: MHD_LogCallback = { serverPointer, format, arguments in
        guard let serverPointer, let format, let arguments else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while message.hasSuffix("\n") { message.removeLast() }
        // One client's malformed request is that client's problem, and under junk traffic these lines
        // would flood the log: they go to debug. Everything else (limits, sockets, TLS) is notable.
        let perRequest = [
            "Error processing request", "Failed to receive data", "Failed to send data", "Connection reset", "Error: received", "Error: ", "Closing connection",
        ]
        if perRequest.contains(where: message.hasPrefix) {
            server.logger.debug("libmicrohttpd: \(message)")
        } else {
            server.logger.notice("libmicrohttpd: \(message)")
        }
    }

    // MARK: helpers

    private static func respond(
        _ server: HTTPServer,
        _ connection: OpaquePointer,
        _ exchange: ExchangeState,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        refusal: Refusal?
    ) -> MHD_Result {
        let request = request(server, connection, exchange, method: method, version: version)
        let response: HTTPResponse
        let completion: HTTPServer.ExchangeCompletion?
        // While a stop drains, every answer closes its connection after it: the client learns to
        // go elsewhere (or to the next process) without a request lost in between. So does an
        // answer before the body: the body is never read.
        var closing = server.isDraining
        switch refusal {
        case .beforeBody(let early):
            response = early
            completion = server.completeUnanswered
            closing = true
        case .tooLarge:
            response = payloadTooLarge(server, request)
            completion = server.completeUnanswered
        case .malformed(let fault):
            response = HTTPResponse(
                status: 400, contentType: "text/plain; charset=utf-8", text: "Bad Request: \(fault.detail)\n", headers: ["Connection": "close"])
            completion = server.completeUnanswered
        case nil:
            (response, completion) = server.answer(request)
        }
        let isHead = request.method == "HEAD"
        exchange.answered(request, status: response.status, bodySize: isHead ? 0 : response.body.count, completion: completion)
        exchange.connectionEntry?.enter(.responding, at: 0)
        if isHead, let stream = response.stream {
            // No body goes out for HEAD: the stream is never read, so it is closed now.
            stream.finish()
            return ResponseBuilder.queue(HTTPResponse(status: response.status, headers: response.headers), on: connection, closing: closing)
        }
        return ResponseBuilder.queue(response, on: connection, closing: closing)
    }

    /// The request as the responder sees it, with the body read so far (all of it once it ended).
    private static func request(
        _ server: HTTPServer, _ connection: OpaquePointer, _ exchange: ExchangeState, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> HTTPRequest {
        let peer = peerAddress(of: connection)
        let proxies = server.configuration.trustedProxies
        return HTTPRequest(
            method: method.map(text(of:)) ?? "GET",
            target: exchange.target,
            version: version.map(text(of:)) ?? "HTTP/1.1",
            headers: exchange.headers,
            clientAddress: proxies.isEmpty ? peer : proxies.clientAddress(peer: peer, headers: exchange.headers),
            body: exchange.takeBody()
        )
    }

    /// The connection's peer address as text, written once per connection (every request of a
    /// keep-alive connection comes from the same peer) and kept in its state.
    private static func peerAddress(of connection: OpaquePointer) -> String? {
        guard let state = connectionState(connection) else {
            return linkhost_mhd_client_address(connection).flatMap { SocketAddressText.address($0) }
        }
        if let known = state.peerAddress { return known }
        let written = linkhost_mhd_client_address(connection).flatMap { SocketAddressText.address($0) }
        state.peerAddress = written
        return written
    }

    /// A method or version as libmicrohttpd hands it over, as text. The usual ones are compared and
    /// given as literals, which skips decoding a C string twice a request.
    private static func text(of cString: UnsafePointer<CChar>) -> String {
        // Literal arguments: the compiler passes their static bytes, with nothing made at run time.
        if strcmp(cString, "GET") == 0 { return "GET" }
        if strcmp(cString, "HTTP/1.1") == 0 { return "HTTP/1.1" }
        if strcmp(cString, "HEAD") == 0 { return "HEAD" }
        if strcmp(cString, "POST") == 0 { return "POST" }
        return String(cString: cString)
    }

    /// The 413 the server sends by itself, in the client's own language: the JSON problem for a JSON
    /// body (API clients parse `{"error", "detail"}`), plain text otherwise.
    private static func payloadTooLarge(_ server: HTTPServer, _ request: HTTPRequest) -> HTTPResponse {
        let problem = HTTPProblem.payloadTooLarge(limit: server.configuration.maximumBodySize)
        if request.headers["Content-Type"]?.lowercased().contains("json") == true {
            return problem.response(headers: ["Connection": "close"])
        }
        return HTTPResponse(
            status: 413, contentType: "text/plain; charset=utf-8", text: "Payload Too Large: \(problem.detail)\n", headers: ["Connection": "close"])
    }

    /// Why the server answers by itself instead of asking the responder.
    private enum Refusal {
        case tooLarge
        case malformed(HeadFault)
        /// The responder's answer from the head alone, before the body.
        case beforeBody(HTTPResponse)
    }

    /// The header fields of a head, with what the framing checks need to know about them.
    private struct CollectedHead {
        var headers = HTTPHeaders()
        var hostFields = 0
        /// The first `Content-Length` value, noted while collecting rather than looked up after.
        var contentLength: String?
        var hiddenBytes = false
        var framing = HeadFault.Framing()
        /// Where the previous field's value ended in libmicrohttpd's buffer.
        var previousValueEnd: UnsafePointer<CChar>?
    }

    /// Whether the bytes from `start` up to `end` are only what libmicrohttpd leaves between a field's
    /// parts: NULs it wrote over `:`, CR and LF, and optional whitespace.
    ///
    /// libmicrohttpd 0.9.75 measures names and values with strlen, so a NUL byte sent inside one cuts
    /// it and hides the rest; the hidden bytes are still in the buffer, between one field's end and
    /// the next one's start, where nothing but those separators belongs.
    private static func onlySeparators(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> Bool {
        var byte = start
        while byte < end {
            switch UInt8(bitPattern: byte.pointee) {
            case 0, UInt8(ascii: " "), UInt8(ascii: "\t"): byte += 1
            default: return false
            }
        }
        return true
    }

    private static let collectField: MHD_KeyValueIteratorN = { headPointer, _, key, keySize, value, valueSize in
        guard let headPointer, let key else { return MHD_Result.YES }
        let head = headPointer.assumingMemoryBound(to: CollectedHead.self)
        if let previous = head.pointee.previousValueEnd, !onlySeparators(from: previous, to: key) { head.pointee.hiddenBytes = true }
        // Trailing whitespace is not part of a field value (RFC 9110 §5.5); libmicrohttpd 0.9.75
        // keeps it, so `Host: rowhni.com ` would name no site.
        var valueSize = valueSize
        if let value {
            while valueSize > 0, value[valueSize - 1] == CChar(UInt8(ascii: " ")) || value[valueSize - 1] == CChar(UInt8(ascii: "\t")) {
                valueSize -= 1
            }
            if !onlySeparators(from: key + keySize, to: value) { head.pointee.hiddenBytes = true }
            head.pointee.previousValueEnd = value + valueSize
        }
        let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
            String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
        }
        let text =
            value.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                }
            } ?? ""
        // A CR or LF left inside a value is a line break libmicrohttpd did not split on; another
        // reader of the same bytes may (RFC 9112 §2.2).
        if let value, valueSize > 0, memchr(value, 13, valueSize) != nil || memchr(value, 10, valueSize) != nil {
            head.pointee.framing.bareLineBreak = true
        }
        if HTTPHeaders.namesMatch(name, "Host") {
            head.pointee.hostFields += 1
        } else if HTTPHeaders.namesMatch(name, "Content-Length") {
            // Repeats with one value are allowed (RFC 9112 §6.3), different ones are not; a list
            // in one field is refused further on when its values differ.
            if let first = head.pointee.contentLength, first != text { head.pointee.framing.conflictingLengths = true }
            if head.pointee.contentLength == nil { head.pointee.contentLength = text }
            head.pointee.framing.hasLength = true
        } else if HTTPHeaders.namesMatch(name, "Transfer-Encoding") {
            head.pointee.framing.hasTransferEncoding = true
        }
        head.pointee.headers.add(name, text)
        return MHD_Result.YES
    }

    private static func collectHead(of connection: OpaquePointer) -> CollectedHead {
        var head = CollectedHead()
        // Room for a browser's usual dozen fields up front: growing from empty reallocated the
        // list three or four times per request.
        head.headers.reserveCapacity(16)
        withUnsafeMutablePointer(to: &head) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, collectField, pointer)
        }
        // After the last value come its line end and the empty line, both turned into NULs (whitespace
        // may come first); anything else there was hidden behind a NUL sent inside the value.
        if var byte = head.previousValueEnd {
            while byte.pointee == CChar(UInt8(ascii: " ")) || byte.pointee == CChar(UInt8(ascii: "\t")) { byte += 1 }
            if byte.pointee != 0 || byte[1] != 0 { head.hiddenBytes = true }
        }
        head.previousValueEnd = nil
        return head
    }

    /// Whether the method, target and version libmicrohttpd hands over are the whole request line.
    ///
    /// libmicrohttpd 0.9.75 gives the method and version as C strings pointing into the line it read
    /// (`METHOD SP target SP version`), so a NUL byte inside the method or target cuts the string it
    /// passes and the rest becomes invisible. The three pointers still show it: each part must end
    /// exactly one space before the next begins.
    private static func requestLineIsIntact(
        method: UnsafePointer<CChar>?, target: (start: UInt, length: Int)?, version: UnsafePointer<CChar>?
    ) -> Bool {
        guard let method, let target, let version else { return true }
        let methodEnd = UInt(bitPattern: method) + UInt(strlen(method))
        return methodEnd + 1 == target.start && target.start + UInt(target.length) + 1 == UInt(bitPattern: version)
    }

    private static func outcome(of termination: MHD_RequestTerminationCode) -> HTTPExchange.Outcome {
        switch termination {
        case MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK: .completed
        case MHD_RequestTerminationCode.REQUEST_TERMINATED_TIMEOUT_REACHED: .timedOut
        case MHD_RequestTerminationCode.REQUEST_TERMINATED_DAEMON_SHUTDOWN: .serverShutdown
        case MHD_RequestTerminationCode.REQUEST_TERMINATED_READ_ERROR: .readError
        case MHD_RequestTerminationCode.REQUEST_TERMINATED_CLIENT_ABORT: .clientAborted
        default: .failed
        }
    }
}
