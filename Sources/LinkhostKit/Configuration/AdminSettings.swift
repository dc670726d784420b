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

    public static let defaults = AdminSettings(listenAddress: "127.0.0.1", port: 9090, tokenFile: nil, fileToken: nil, sessionHours: 12, tls: false)
}
