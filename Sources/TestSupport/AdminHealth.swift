import Foundation
import OrderedJSON

/// The detailed health report of a `linkhost serve` child, read where it lives: `/healthz` on its
/// admin listener, with the admin token (the public `/healthz` says only the status). A test starts
/// the server with `environment` (which holds the token) and `serveArguments` (a free admin port),
/// then finds the port in the server's start-up lines with `init(of:)`.
public struct AdminHealth: Sendable {
    /// The admin token test servers run with.
    public static let token = "test-admin-health-token-3c9e1a"
    /// The start of `serve`'s line that names the admin listener once it listens.
    public static let startLine = "admin (dashboard, /api/v1/, /metrics): http://"
    /// What `serve` takes for an admin listener on a free loopback port.
    public static let serveArguments = ["--admin-port", "0"]
    /// This process's environment with the admin token, which turns the admin listener on.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LINKHOST_ADMIN_TOKEN"] = token
        return environment
    }

    public let port: Int

    public init(port: Int) {
        self.port = port
    }

    /// The admin listener of `child`, from its start-up lines (waited for).
    public init(of child: ChildProcess) throws {
        guard child.waitForOutput(containing: Self.startLine) else {
            throw RawHTTPClient.ClientError.connect("serve named no admin listener: \(child.standardOutput)")
        }
        // One write puts the whole line out; the port runs to its end.
        let line = child.standardOutput.split(separator: "\n").first { $0.hasPrefix(Self.startLine) } ?? ""
        guard let port = Int(line.split(separator: ":").last ?? "") else {
            throw RawHTTPClient.ClientError.connect("no admin port in \"\(line)\"")
        }
        self.port = port
    }

    /// The admin listener's `/healthz`, with the token unless `token` is `nil`.
    public func response(token: String? = Self.token, timeoutSeconds: Double = 30) throws -> RawHTTPClient.Response {
        let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        return try RawHTTPClient(port: port, timeoutSeconds: timeoutSeconds).request("GET", "/healthz", headers: headers + [("Connection", "close")])
    }

    /// The detailed report.
    public func details(timeoutSeconds: Double = 30) throws -> JSONValue {
        let response = try response(timeoutSeconds: timeoutSeconds)
        guard response.status == 200 else { throw RawHTTPClient.ClientError.malformed("the admin /healthz answered \(response.status)") }
        return try JSONParser().parse(response.body)
    }
}
