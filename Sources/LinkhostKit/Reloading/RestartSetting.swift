/// A setting a reload found changed that only a restart can apply: the listeners, TLS, the hit
/// log and the pid file are set up once at start. The running value is kept.
public struct RestartSetting: Sendable, Equatable, CustomStringConvertible {
    /// The setting's JSON path (`server.listen.port`).
    public let path: String
    /// The values, when they are safe to show; `nil` for files and URLs whose text may hold a
    /// secret (a database password) or is long (a certificate), which are only said to have changed.
    public let running: String?
    public let requested: String?

    public var description: String {
        guard let running, let requested else { return "\(path) changed" }
        return "\(path) changed from \(running) to \(requested)"
    }
}
