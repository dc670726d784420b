import HTTPServing

/// A link written in the config (or built by the CLI) split the way the server splits a request,
/// so examples are routed exactly like real requests.
public struct HTTPRequestTargetParts {
    public let rawPath: String
    public let rawQuery: String?

    public init(_ target: String) {
        let request = HTTPRequest(method: "GET", target: target)
        rawPath = request.rawPath
        rawQuery = request.rawQuery
    }
}
