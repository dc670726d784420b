import HTTPServer

/// A link written in the config (or built by the CLI) (`/addfriend?code=TEST123`) split the way the server splits a
/// request, so examples are routed exactly like real requests.
public struct HTTPRequestTargetParts {
    public let rawPath: String
    public let query: [(name: String, value: String?)]

    public init(_ target: String) {
        let request = HTTPRequest(method: "GET", target: target)
        rawPath = request.rawPath
        query = request.queryItems.map { ($0.name, $0.value) }
    }
}
