/// Settings given outside the config file (the `serve` flags) that replace the file's. The loader
/// applies them before the checks that span sections, so an override is checked like the file.
public struct ConfigurationOverrides: Sendable {
    /// One overriding value and what messages call it (a flag such as `--port`), since the problem
    /// is then on the command line, not in the file.
    public struct Setting<Value: Sendable>: Sendable {
        public let value: Value
        public let origin: String

        public init(_ value: Value, from origin: String) {
            self.value = value
            self.origin = origin
        }
    }

    /// Replaces `server.listen.address`.
    public var listenAddress: Setting<String>?
    /// Replaces `server.listen.port`.
    public var port: Setting<Int>?
    /// Replaces `server.tls.certificate`, turning HTTPS on when the file has no `server.tls`.
    public var tlsCertificate: Setting<String>?
    /// Replaces `server.tls.key`; given together with `tlsCertificate`.
    public var tlsKey: Setting<String>?
    /// Replaces `server.tls.port`.
    public var tlsPort: Setting<Int>?
    /// Replaces `server.admin.listen.port`.
    public var adminPort: Setting<Int>?
    /// Replaces `log.database`.
    public var databasePath: Setting<String>?
    /// Replaces `server.pidFile`.
    public var pidFile: Setting<String>?

    public init() {}
}
