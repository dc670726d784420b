/// What every request of one `CurlHTTPClient` shares: whom it trusts, how long it waits, how much
/// it reads.
public struct CurlHTTPConfiguration: Sendable, Equatable {
    /// A PEM file of the CA certificates to trust for HTTPS instead of the system's; `nil` trusts the
    /// system's store.
    public var caCertificateFile: String?
    /// How long connecting (TCP and TLS) may take.
    public var connectTimeout: Duration
    /// How long a whole transfer may take, connecting included.
    public var timeout: Duration
    /// The largest response body read; a larger one fails the request (`tooLarge`).
    public var maximumResponseSize: Int
    /// How many redirects a request that asks to follow them follows at most.
    public var maximumRedirects: Int
    public var userAgent: String

    public init(
        caCertificateFile: String? = nil, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30),
        maximumResponseSize: Int = 1 << 20, maximumRedirects: Int = 5, userAgent: String = "linkhost"
    ) {
        self.caCertificateFile = caCertificateFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumRedirects = maximumRedirects
        self.userAgent = userAgent
    }
}
