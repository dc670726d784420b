internal import CMicroHTTPD
import Glibc

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
        let exchange = ExchangeState(target: uri.map { String(cString: $0) } ?? "/")
        if let uri { hideQueryFromLibmicrohttpd(uri) }
        return attach(exchange, to: connection)
    }

    /// Called when a connection opens and when it closes (always, however it ends).
    static let connectionChanged: MHD_NotifyConnectionCallback = { serverPointer, _, socketContext, code in
        guard let socketContext else { return }
        let server = serverPointer.map { Unmanaged<HTTPServer>.fromOpaque($0).takeUnretainedValue() }
        switch code {
        case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED:
            socketContext.pointee = Unmanaged.passRetained(ConnectionState()).toOpaque()
            server?.counters.connections.add(1, ordering: .relaxed)
        default:
            if let raw = socketContext.pointee {
                // Releasing the state releases a request that never completed.
                Unmanaged<ConnectionState>.fromOpaque(raw).release()
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
            return Unmanaged.passUnretained(exchange).toOpaque()
        }
        exchange.ownedByPointer = true
        return Unmanaged.passRetained(exchange).toOpaque()
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
            let declaredLength = lookupHeader(connection, "Content-Length").flatMap { Int($0) }
            switch exchange.headArrived(at: .now, declaredLength: declaredLength, limit: limit) {
            case .refuseTooLarge:
                return respond(server, connection, exchange, method: method, version: version, tooLarge: true)
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
            let step = exchange.bodyChunk(UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : size), limit: limit)
            return step == .closeConnection ? MHD_Result.NO : MHD_Result.YES
        }
        switch exchange.bodyEnded() {
        case .nothing: return MHD_Result.YES
        case .respond: return respond(server, connection, exchange, method: method, version: version, tooLarge: false)
        case .refuseTooLarge: return respond(server, connection, exchange, method: method, version: version, tooLarge: true)
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
        if let ended = exchange.ended(outcome, at: .now), let completion = exchange.completion {
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
        tooLarge: Bool
    ) -> MHD_Result {
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            target: exchange.target,
            version: version.map { String(cString: $0) } ?? "HTTP/1.1",
            headers: headers(of: connection),
            clientAddress: linkhost_mhd_client_address(connection).flatMap { SocketAddressText.address($0) },
            body: exchange.takeBody()
        )
        let response: HTTPResponse
        let completion: HTTPServer.ExchangeCompletion?
        if tooLarge {
            response = payloadTooLarge(server, request)
            completion = server.completeUnanswered
        } else {
            (response, completion) = server.answer(request)
        }
        let isHead = request.method == "HEAD"
        exchange.answered(request, status: response.status, bodySize: isHead ? 0 : response.body.count, completion: completion)
        if isHead, let stream = response.stream {
            // No body goes out for HEAD: the stream is never read, so it is closed now.
            stream.finish()
            return ResponseBuilder.queue(HTTPResponse(status: response.status, headers: response.headers), on: connection)
        }
        return ResponseBuilder.queue(response, on: connection)
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

    private static func lookupHeader(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    private static let collectHeader: MHD_KeyValueIteratorN = { headersPointer, _, key, keySize, value, valueSize in
        guard let headersPointer, let key else { return MHD_Result.YES }
        let headers = headersPointer.assumingMemoryBound(to: HTTPHeaders.self)
        let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
            String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
        }
        let text =
            value.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                }
            } ?? ""
        headers.pointee.add(name, text)
        return MHD_Result.YES
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
        }
        return headers
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
