/// The final response of a transfer (after redirects when they were followed).
public struct CurlHTTPResponse: Sendable {
    public var status: Int
    /// The header fields in the order received, names as the server spelled them.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The peer's certificates as PEM, leaf first, when the request asked for them.
    public var peerCertificatesPEM: [String] = []

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (compared without case), `nil` when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the header field `name`, in order (`Link` comes several times).
    public func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
