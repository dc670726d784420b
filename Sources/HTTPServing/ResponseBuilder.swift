internal import CMicroHTTPD

/// Builds and queues libmicrohttpd response objects from Swift values.
enum ResponseBuilder {
    /// A new response handle holding a copy of `body` and the given headers; `nil` if MHD refuses.
    static func makeHandle(body: [UInt8], headers: HTTPHeaders) -> OpaquePointer? {
        let handle: OpaquePointer? = body.withUnsafeBytes { buffer in
            if buffer.isEmpty {
                return MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
            }
            return MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let handle else { return nil }
        for field in headers {
            guard MHD_add_response_header(handle, field.name, field.value) == MHD_Result.YES else {
                MHD_destroy_response(handle)
                return nil
            }
        }
        return handle
    }

    /// Queues `response` on `connection`; builds (and releases) a one-off handle unless prepared.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        if let prepared = response.prepared {
            return MHD_queue_response(connection, UInt32(prepared.status), prepared.handle)
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
        guard let handle = makeHandle(body: body, headers: headers) else { return MHD_Result.NO }
        let result = MHD_queue_response(connection, UInt32(status), handle)
        MHD_destroy_response(handle)
        return result
    }
}
