import CCurl

/// A transfer that did not end in an HTTP response: libcurl's code and its message for it.
public struct CurlHTTPError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a caller decides on (retry later, or fix a setting).
    public enum Reason: Sendable, Equatable {
        /// The URL is malformed or uses a scheme other than http and https.
        case invalidURL
        case couldNotResolve
        case couldNotConnect
        case timedOut
        /// The TLS handshake failed or the server's certificate is not trusted (see the message).
        case tls
        /// The response body passed the configuration's `maximumResponseSize`.
        case tooLarge
        case other
    }

    public let reason: Reason
    /// libcurl's `CURLcode`.
    public let code: Int
    public let message: String

    public init(reason: Reason, code: Int, message: String) {
        self.reason = reason
        self.code = code
        self.message = message
    }

    public var description: String { message }

    init(code: CURLcode, detail: String, url: String) {
        let summary = String(cString: curl_easy_strerror(code))
        self.init(reason: Self.reason(of: code), code: Int(code.rawValue), message: "\(url): \(detail.isEmpty ? summary : detail)")
    }

    private static func reason(of code: CURLcode) -> Reason {
        switch code {
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .invalidURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .couldNotResolve
        case CURLE_COULDNT_CONNECT: .couldNotConnect
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM: .tls
        case CURLE_FILESIZE_EXCEEDED: .tooLarge
        default: .other
        }
    }
}
