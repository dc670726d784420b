/// Why a server could not start or a response could not be built, worded for the operator.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value is out of range.
    case invalidConfiguration(String)
    /// The address could not be parsed, or binding/listening failed.
    case cannotListen(address: String, port: Int, reason: String)
    /// libmicrohttpd refused to start.
    case cannotStart(String)
    /// `start()` was called on a server that is running or has stopped.
    case alreadyStarted
    /// A prepared response had an invalid status or header.
    case invalidResponse(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let problem):
            "invalid server configuration: \(problem)"
        case .cannotListen(let address, let port, let reason):
            "cannot listen on \(address.contains(":") ? "[\(address)]" : address):\(port): \(reason)"
        case .cannotStart(let reason):
            "the HTTP server could not start: \(reason)"
        case .alreadyStarted:
            "the server was already started; make a new HTTPServer to start again"
        case .invalidResponse(let problem):
            "invalid response: \(problem)"
        }
    }
}
