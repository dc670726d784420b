/// The `server.admin` object: where the admin listener (API, dashboard, metrics) listens and where
/// its token is. The listener runs only when a token is configured (`AdminToken.resolve`).
public struct AdminSettings: Sendable, Equatable {
    /// Loopback by default: the admin surface is for this machine (or an SSH tunnel) unless an
    /// operator deliberately opens it.
    public var listenAddress: String
    public var port: Int
    /// A file holding the token (not world-readable), read when the config is loaded.
    public var tokenFile: String?
    /// The token read from `tokenFile`.
    public var fileToken: AdminToken?
    /// How long a dashboard login lasts.
    public var sessionHours: Int
    /// Serve the admin listener over HTTPS with `server.tls`'s certificate (session cookies then `Secure`).
    public var tls: Bool
    /// Most admin connections open at once (`server.admin.limits.connections`). The listener is
    /// event-driven, so an idle connection costs no thread: hundreds of idle API clients (or a
    /// deliberate flood of idle sockets) leave room for the operator's request.
    public var connectionLimit: Int
    /// Seconds an admin connection may stay idle (`server.admin.limits.connectionTimeoutSeconds`).
    public var connectionTimeoutSeconds: Int

    public static let defaults = AdminSettings(
        listenAddress: "127.0.0.1", port: 9090, tokenFile: nil, fileToken: nil, sessionHours: 12, tls: false, connectionLimit: 1024,
        connectionTimeoutSeconds: 30)
}
