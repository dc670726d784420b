/// One HTTP request: method, absolute URL, header fields and body.
public struct CurlHTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
    }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Whether a 3xx answer is followed (up to the configuration's limit) rather than returned.
    public var followRedirects: Bool
    /// `CURLOPT_CONNECT_TO` entries (`host:port:address:port`): the URL's host is sent (and is the
    /// TLS server name) while the connection goes to the address, as `curl --connect-to` does.
    public var connectTo: [String] = []
    /// Whether the peer's certificates are returned (`CurlHTTPResponse.peerCertificatesPEM`).
    public var readsPeerCertificates = false
    /// Whether the server's certificate must verify; off only to read what a server serves.
    public var verifiesPeer = true

    public init(method: Method = .get, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [], followRedirects: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.followRedirects = followRedirects
    }
}
