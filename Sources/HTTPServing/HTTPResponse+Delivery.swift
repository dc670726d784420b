extension HTTPResponse {
    /// What a client reads for this response to a `method` request, worked out in this process the
    /// way the server sends it: no body for HEAD (a stream is then finished unread), a stream read to
    /// its end, and `Content-Length` for a body sent whole (libmicrohttpd adds it; never for a stream,
    /// nor for 1xx, 204 and 304, whose bodies are empty). For tests that answer in-process
    /// (`LinkhostServer.answer`); `complete` is false when a stream failed part-way, which a client
    /// sees as a body cut short.
    package func delivered(toMethod method: String) -> (headers: HTTPHeaders, body: [UInt8], complete: Bool) {
        var headers = self.headers
        let bodiless = (100..<200).contains(status) || status == 204 || status == 304
        guard let stream else {
            if !bodiless { headers.set("Content-Length", "\(body.count)") }
            return (headers, method == "HEAD" || bodiless ? [] : body, true)
        }
        defer { stream.finish() }
        guard method != "HEAD" else { return (headers, [], true) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 32 * 1024)
        while true {
            let result = buffer.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            switch result {
            case .bytes(let count): bytes += buffer[0..<count]
            case .end: return (headers, bytes, true)
            case .failed: return (headers, bytes, false)
            }
        }
    }
}
