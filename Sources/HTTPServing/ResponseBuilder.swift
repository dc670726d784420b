internal import CMicroHTTPD

/// Builds and queues libmicrohttpd response objects from Swift values.
enum ResponseBuilder {
    /// A new response handle holding a copy of `body` and the given headers; `nil` if MHD refuses.
    static func makeHandle(body: [UInt8], headers: HTTPHeaders) -> OpaquePointer? {
        guard let handle = makeHandle(body: body) else { return nil }
        for field in headers {
            guard MHD_add_response_header(handle, field.name, field.value) == MHD_Result.YES else {
                MHD_destroy_response(handle)
                return nil
            }
        }
        return handle
    }

    /// `makeHandle(body:headers:)` for headers already held as C strings.
    static func makeHandle(body: [UInt8], headers: CheckedHeaders) -> OpaquePointer? {
        guard let handle = makeHandle(body: body) else { return nil }
        for field in headers.cStrings {
            let added = field.name.withUnsafeBufferPointer { name in
                field.value.withUnsafeBufferPointer { value in MHD_add_response_header(handle, name.baseAddress, value.baseAddress) }
            }
            guard added == MHD_Result.YES else {
                MHD_destroy_response(handle)
                return nil
            }
        }
        return handle
    }

    /// A new response handle holding a copy of `body` and no headers yet.
    private static func makeHandle(body: [UInt8]) -> OpaquePointer? {
        body.withUnsafeBytes { buffer in
            if buffer.isEmpty {
                return MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
            }
            return MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    }

    /// Queues `response` on `connection`; builds (and releases) a one-off handle unless prepared.
    /// `closing` adds `Connection: close`, so libmicrohttpd closes the connection once it is sent.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool = false) -> MHD_Result {
        if let prepared = response.prepared {
            return MHD_queue_response(connection, UInt32(prepared.status), closing ? prepared.closingHandle : prepared.handle)
        }
        var status = response.status
        var headers = response.headers
        var body = response.body
        if !(100...599).contains(status) || headers.contains(where: { !HeaderFieldRules.isValid(name: $0.name, value: $0.value) }) {
            // A responder bug must not reach the wire as a malformed or split response.
            status = 500
            headers = ["Content-Type": "text/plain; charset=utf-8"]
            body = Array("Internal Server Error\n".utf8)
        }
        if closing { headers.set("Connection", "close") }
        if let stream = response.stream, status == response.status {
            return queue(stream, status: status, headers: headers, on: connection)
        }
        response.stream?.finish()
        guard let handle = makeHandle(body: body, headers: headers) else { return MHD_Result.NO }
        let result = MHD_queue_response(connection, UInt32(status), handle)
        MHD_destroy_response(handle)
        return result
    }

    /// Queues a streamed body: libmicrohttpd calls `streamReader` whenever the socket can take more
    /// and sends what it gets chunked (HTTP/1.1) or until the connection closes (HTTP/1.0).
    private static func queue(_ stream: HTTPBodyStream, status: Int, headers: HTTPHeaders, on connection: OpaquePointer) -> MHD_Result {
        let context = Unmanaged.passRetained(stream).toOpaque()
        guard let handle = MHD_create_response_from_callback(UInt64.max, 32 * 1024, streamReader, context, streamReleaser) else {
            // libmicrohttpd did not take the context: it is ours to release.
            streamReleaser(context)
            return MHD_Result.NO
        }
        for field in headers where MHD_add_response_header(handle, field.name, field.value) != MHD_Result.YES {
            MHD_destroy_response(handle)
            return MHD_Result.NO
        }
        let result = MHD_queue_response(connection, UInt32(status), handle)
        MHD_destroy_response(handle)
        return result
    }

    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return -2 }
        let stream = Unmanaged<HTTPBodyStream>.fromOpaque(context).takeUnretainedValue()
        switch stream.read(into: buffer, capacity: capacity) {
        case .bytes(let count): return count
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        case .failed: return -2  // MHD_CONTENT_READER_END_WITH_ERROR
        }
    }

    private static let streamReleaser: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let stream = Unmanaged<HTTPBodyStream>.fromOpaque(context).takeRetainedValue()
        stream.finish()
    }
}
