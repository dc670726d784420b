import ACME
import CurlHTTP

/// The ACME client's transport over libcurl: the server's HTTPS is trusted by the configuration's
/// CA file when one is given (a private CA, Pebble's test CA), else by the system's store.
public struct CurlACMETransport: ACMETransport {
    public let client: CurlHTTPClient

    public init(configuration: CurlHTTPConfiguration = CurlHTTPConfiguration()) {
        client = CurlHTTPClient(configuration: configuration)
    }

    public init(client: CurlHTTPClient) {
        self.client = client
    }

    public func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
        let method: CurlHTTPRequest.Method =
            switch request.method {
            case .get: .get
            case .head: .head
            case .post: .post
            }
        let response = try await client.send(CurlHTTPRequest(method: method, url: request.url, headers: request.headers, body: request.body))
        return ACMEHTTPResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
