import CCurl

/// One request on one easy handle: sets the options, performs, and collects the status line's
/// successors (header fields) and the body through libcurl's callbacks.
final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private let configuration: CurlHTTPConfiguration
    private let request: CurlHTTPRequest
    private var headers: [(name: String, value: String)] = []
    private var body: [UInt8] = []
    private var exceededLimit = false
    /// The CURLOPT_CONNECT_TO list, which must live until the transfer ends.
    private var connectTargets: UnsafeMutablePointer<curl_slist>?

    deinit { curl_slist_free_all(connectTargets) }

    init(handle: UnsafeMutableRawPointer, configuration: CurlHTTPConfiguration, request: CurlHTTPRequest) {
        self.handle = handle
        self.configuration = configuration
        self.request = request
    }

    func run() throws(CurlHTTPError) -> CurlHTTPResponse {
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var fieldList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(fieldList) }
        // "Expect:" with no value stops libcurl from sending `Expect: 100-continue` before a body.
        for field in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            fieldList = curl_slist_append(fieldList, field)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            var code = configure(errorBuffer: buffer.baseAddress!, fields: fieldList, context: context)
            if code == CURLE_OK { code = curl_easy_perform(handle) }
            // The handle goes back to the pool: it must not point at this stack frame's buffer.
            _ = linkhost_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        _ = linkhost_curl_setopt_list(handle, CURLOPT_HTTPHEADER, nil)
        _ = linkhost_curl_setopt_list(handle, CURLOPT_CONNECT_TO, nil)
        if exceededLimit {
            throw CurlHTTPError(
                reason: .tooLarge, code: Int(CURLE_WRITE_ERROR.rawValue),
                message: "\(request.url): the response is larger than \(configuration.maximumResponseSize) bytes")
        }
        guard code == CURLE_OK else {
            let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw CurlHTTPError(code: code, detail: detail, url: request.url)
        }
        var status = 0
        _ = linkhost_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var response = CurlHTTPResponse(status: status, headers: headers, body: body)
        if request.readsPeerCertificates { response.peerCertificatesPEM = peerCertificates() }
        return response
    }

    /// The `Cert:` field of each certificate libcurl reports (CURLINFO_CERTINFO), leaf first.
    private func peerCertificates() -> [String] {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard linkhost_curl_getinfo_certinfo(handle, &info) == CURLE_OK, let info, let lists = info.pointee.certinfo else { return [] }
        var certificates: [String] = []
        for index in 0..<Int(info.pointee.num_of_certs) {
            var item = lists[index]
            while let field = item {
                let text = String(cString: field.pointee.data)
                if text.hasPrefix("Cert:") { certificates.append(String(text.dropFirst(5))) }
                item = field.pointee.next
            }
        }
        return certificates
    }

    /// Every option of the request; the first that libcurl refuses ends the transfer before it starts.
    private func configure(errorBuffer: UnsafeMutablePointer<CChar>, fields: UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer) -> CURLcode {
        var steps: [() -> CURLcode] = [
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_ERRORBUFFER, errorBuffer) },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_URL, self.request.url) },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_PROTOCOLS_STR, "http,https") },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") },
            // Timeouts by SIGALRM are not thread-safe: libcurl must not use signals at all.
            { linkhost_curl_setopt_long(self.handle, CURLOPT_NOSIGNAL, 1) },
            { linkhost_curl_setopt_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(self.configuration.connectTimeout)) },
            { linkhost_curl_setopt_long(self.handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(self.configuration.timeout)) },
            { linkhost_curl_setopt_long(self.handle, CURLOPT_FOLLOWLOCATION, self.request.followRedirects ? 1 : 0) },
            { linkhost_curl_setopt_long(self.handle, CURLOPT_MAXREDIRS, self.configuration.maximumRedirects) },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_USERAGENT, self.configuration.userAgent) },
            { linkhost_curl_setopt_list(self.handle, CURLOPT_HTTPHEADER, fields) },
            { linkhost_curl_setopt_write_callback(self.handle, CURLOPT_WRITEFUNCTION, CurlCallbacks.body) },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_WRITEDATA, context) },
            { linkhost_curl_setopt_write_callback(self.handle, CURLOPT_HEADERFUNCTION, CurlCallbacks.header) },
            { linkhost_curl_setopt_pointer(self.handle, CURLOPT_HEADERDATA, context) },
        ]
        var connectList: UnsafeMutablePointer<curl_slist>?
        for entry in request.connectTo { connectList = curl_slist_append(connectList, entry) }
        if let connectList {
            steps.append { linkhost_curl_setopt_list(self.handle, CURLOPT_CONNECT_TO, connectList) }
            connectTargets = connectList
        }
        if request.readsPeerCertificates { steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_CERTINFO, 1) } }
        if !request.verifiesPeer {
            steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_SSL_VERIFYPEER, 0) }
            steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_SSL_VERIFYHOST, 0) }
        }
        if let file = configuration.caCertificateFile {
            steps.append { linkhost_curl_setopt_pointer(self.handle, CURLOPT_CAINFO, file) }
        }
        switch request.method {
        case .get:
            steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_HTTPGET, 1) }
        case .head:
            steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_NOBODY, 1) }
        case .post:
            steps.append { linkhost_curl_setopt_long(self.handle, CURLOPT_POST, 1) }
            steps.append { linkhost_curl_setopt_offset(self.handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(self.request.body.count)) }
            // Copied by libcurl, so the body's Swift storage need not outlive this call.
            steps.append {
                self.request.body.withUnsafeBytes { bytes in
                    // An empty body has no storage: libcurl then copies an empty string.
                    guard let base = bytes.baseAddress else { return linkhost_curl_setopt_pointer(self.handle, CURLOPT_COPYPOSTFIELDS, "") }
                    return linkhost_curl_setopt_pointer(self.handle, CURLOPT_COPYPOSTFIELDS, base)
                }
            }
        }
        for step in steps {
            let code = step()
            if code != CURLE_OK { return code }
        }
        return CURLE_OK
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// A body chunk; `false` once the body would pass the limit (the transfer is then aborted).
    fileprivate func receive(body chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= configuration.maximumResponseSize else {
            exceededLimit = true
            return false
        }
        body += chunk
        return true
    }

    /// One header line. A status line starts a new response (after a 1xx or a followed redirect),
    /// so only the last response's fields are kept.
    fileprivate func receive(headerLine bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingSuffix()
        if line.hasPrefix("HTTP/") {
            headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append((name, String(value)))
        }
    }
}

/// libcurl's callbacks, defined outside any actor so libcurl may call them on the transfer's thread.
enum CurlCallbacks {
    static let body: curl_write_callback = { data, size, count, context in
        let length = size * count
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receive(body: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    static let header: curl_write_callback = { data, size, count, context in
        let length = size * count
        guard let context else { return 0 }
        Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receive(headerLine: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }
}

extension String {
    /// The line without its CR LF (or LF) and trailing spaces.
    fileprivate func trimmingSuffix() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == "\r\n" || last == "\n" || last == "\r" || last == " " {
            end = index(before: end)
        }
        return self[..<end]
    }
}
