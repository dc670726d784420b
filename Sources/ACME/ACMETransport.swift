/// How the client reaches the ACME server: one HTTP request, one response. Implemented over libcurl
/// by `ACMECurl` (which trusts a given CA file) and by an in-process fake in the tests.
public protocol ACMETransport: Sendable {
    /// Sends `request` without following redirects; throws only when there is no HTTP response.
    func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse
}

/// An HTTP request of the ACME client.
public struct ACMEHTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
    }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (compared without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// An HTTP response to the ACME client.
public struct ACMEHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (compared without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The media type of the body, lowercased, without parameters.
    var mediaType: String? {
        header("Content-Type").map { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
    }
}
