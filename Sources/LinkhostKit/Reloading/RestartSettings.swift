/// The settings a reload cannot apply, because they are set up once at start: the listening
/// address and port, the limits libmicrohttpd was started with, HTTPS (port, redirects, HSTS,
/// priorities, ACME's settings), the whole hit log, and the pid file. The certificate and key
/// files are read again and served without a restart (`LinkhostServer.reload`).
///
/// Decision: the whole `log` section needs a restart, even the parts the logger reads per row
/// (`clientAddress`, `trackedParameters`): one rule for the section is easier to trust than a
/// list of exceptions, and a change of what is logged is worth a restart that says so. Everything
/// else — sites, rules, AASA files, templates, strings, static files, `unknownHost`,
/// `aasaCacheControl`, `publicDirectory`, `publicScheme`, `cdnCheck`, `reload` — changes live
/// (`reload` for the reloads after the one that applies it).
enum RestartSettings {
    /// The restart-only settings that differ between the running config and the requested one.
    static func changes(running: LinkhostConfiguration, requested: LinkhostConfiguration) -> [RestartSetting] {
        var changes: [RestartSetting] = []
        func compare<Value: Equatable>(_ path: String, _ old: Value, _ new: Value, shown: Bool = true, _ text: (Value) -> String = { "\($0)" }) {
            guard old != new else { return }
            changes.append(RestartSetting(path: path, running: shown ? text(old) : nil, requested: shown ? text(new) : nil))
        }
        let old = running.server
        let new = requested.server
        compare("server.listen.address", old.listenAddress, new.listenAddress)
        compare("server.listen.port", old.port, new.port)
        compare("server.limits.threads", old.threads, new.threads)
        compare("server.limits.connections", old.connectionLimit, new.connectionLimit)
        compare("server.limits.connectionsPerAddress", old.connectionsPerAddress, new.connectionsPerAddress)
        compare("server.limits.connectionTimeoutSeconds", old.connectionTimeoutSeconds, new.connectionTimeoutSeconds)
        compare("server.limits.headSeconds", old.headSeconds, new.headSeconds)
        compare("server.limits.bodyBytesPerSecond", old.bodyBytesPerSecond, new.bodyBytesPerSecond)
        compare("server.limits.drainSeconds", old.drainSeconds, new.drainSeconds)
        compare("server.limits.connectionMemoryBytes", old.connectionMemoryBytes, new.connectionMemoryBytes)
        compare("server.limits.requestBodyBytes", old.requestBodyBytes, new.requestBodyBytes)
        compare("server.limits.shutdownGraceSeconds", old.shutdownGraceSeconds, new.shutdownGraceSeconds)
        compare("server.pidFile", old.pidFile, new.pidFile) { $0 ?? "none" }
        compare("server.trustedProxies", old.trustedProxies, new.trustedProxies) { $0.networks.map(\.description).joined(separator: ", ") }
        compare("server.admin.listen.address", old.admin.listenAddress, new.admin.listenAddress)
        compare("server.admin.listen.port", old.admin.port, new.admin.port)
        compare("server.admin.limits.connections", old.admin.connectionLimit, new.admin.connectionLimit)
        compare("server.admin.limits.connectionTimeoutSeconds", old.admin.connectionTimeoutSeconds, new.admin.connectionTimeoutSeconds)
        switch (old.tls, new.tls) {
        case (let old?, let new?):
            compare("server.tls.port", old.port, new.port)
            compare("server.tls.publicPort", old.publicPort, new.publicPort) { $0.map(String.init) ?? "the port" }
            compare("server.tls.http", old.plainHTTP, new.plainHTTP) { $0.rawValue }
            compare("server.tls.hsts", old.hsts, new.hsts) { $0.map { "\"\($0)\"" } ?? "false" }
            compare("server.tls.priorities", old.priorities, new.priorities) { $0 ?? "the built-in profile" }
            // The certificates ACME manages change live; its settings (CA, account, storage) at a restart.
            compare("server.tls.acme", old.acme, new.acme, shown: false)
        case (nil, nil):
            break
        default:
            compare("server.tls", old.tls == nil ? "off" : "on", new.tls == nil ? "off" : "on")
        }
        let oldLog = running.log
        let newLog = requested.log
        compare("log.enabled", oldLog.enabled, newLog.enabled)
        // A database URL may hold a password: said to have changed, never shown.
        compare("log.database", oldLog.databasePath, newLog.databasePath, shown: false)
        compare("log.secretKeyFile", oldLog.secretKeyFile, newLog.secretKeyFile, shown: false)
        compare("log.spoolFile", oldLog.spoolFile, newLog.spoolFile, shown: false)
        compare("log.clientAddress", oldLog.clientAddress, newLog.clientAddress)
        compare("log.retentionDays", oldLog.retentionDays, newLog.retentionDays)
        compare("log.trackedParameters", oldLog.trackedParameters, newLog.trackedParameters) { $0.joined(separator: ", ") }
        compare("log.journal.path", oldLog.journalPath ?? "", newLog.journalPath ?? "")
        compare("log.journal.sizeBytes", oldLog.journalSizeBytes, newLog.journalSizeBytes)
        compare("log.journal.syncIntervalMs", oldLog.journalSyncIntervalMilliseconds, newLog.journalSyncIntervalMilliseconds)
        return changes
    }
}

extension LinkhostConfiguration {
    /// This (requested) configuration with the restart-only settings of `running` in place of its
    /// own: what a reload serves.
    func keepingRestartSettings(of running: LinkhostConfiguration) -> LinkhostConfiguration {
        var server = running.server
        server.unknownHost = self.server.unknownHost
        server.aasaCacheControl = self.server.aasaCacheControl
        server.publicDirectory = self.server.publicDirectory
        server.publicScheme = self.server.publicScheme
        server.cdnCheck = self.server.cdnCheck
        server.reload = self.server.reload
        // Certificate and key files change live: the reload serves the pair it read.
        if let tls = self.server.tls, tls.acme == nil, server.tls?.acme == nil, server.tls != nil {
            server.tls?.certificatePath = tls.certificatePath
            server.tls?.keyPath = tls.keyPath
            server.tls?.certificatePEM = tls.certificatePEM
            server.tls?.keyPEM = tls.keyPEM
        }
        return LinkhostConfiguration(server: server, sites: sites, log: running.log, baseDirectory: baseDirectory)
    }
}

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
