import ACME
import CertificateIssuing
import Foundation
import LinkhostKit
import Logging

/// `server.tls.acme` for `linkhost serve`: one certificate per site (its hosts as names), ordered in
/// the background by a `CertificateManager` and handed to the running server's certificate store.
enum ACMEServing {
    /// One certificate per site, stored under the site's id, naming its hosts in config order.
    static func certificates(in configuration: LinkhostConfiguration) -> [ManagedCertificate] {
        configuration.sites.map { ManagedCertificate(id: $0.id, hosts: $0.hosts) }
    }

    static func settings(_ acme: ACMESettings) -> CertificateIssuingSettings {
        CertificateIssuingSettings(
            directoryURL: acme.directory, email: acme.email, termsOfServiceAgreed: acme.agreeToTerms, caCertificateFile: acme.caCertificatePath,
            storageFolder: acme.storagePath, keyType: acme.keyType, renewDaysBefore: acme.renewDaysBefore)
    }

    /// The storage folder, or why it cannot be used (with the setting and the fix).
    static func storage(_ acme: ACMESettings) throws -> ACMEStorage {
        do {
            return try ACMEStorage(folder: acme.storagePath)
        } catch {
            throw CLIFailure.unusableInput(
                "server.tls.acme.storage: \(error). Fix: give a folder linkhost's user can write (it holds the account key and certificates, mode 0700)")
        }
    }

    /// The manager for `server`, its stored certificates already installed (nothing asked of the
    /// CA yet); `start()` then orders in the background.
    static func manager(for configuration: LinkhostConfiguration, acme: ACMESettings, server: LinkhostServer, tokens: ACMEHTTP01Tokens, logger: Logger)
        async throws -> CertificateManager
    {
        let storage = try storage(acme)
        let settings = settings(acme)
        let certificates = certificates(in: configuration)
        var acmeLogger = logger
        acmeLogger[metadataKey: "acme"] = "\(acme.directory)"
        let manager = CertificateManager(
            certificates: certificates, settings: settings, ordering: ACMECertificateOrdering(settings: settings, storage: storage, responder: tokens),
            storage: storage, sink: ServerCertificateSink(server: server), logger: acmeLogger)
        await manager.loadStored()
        let board = manager.board
        server.certificateHealth.connect(
            report: { (board.healthSection(), board.isDegraded()) },
            renew: { Task { await manager.renewNow() } })
        return manager
    }
}

/// Hands each issued (or stored) certificate to the running server's certificate store, which
/// serves it for its site's hosts from the next handshake on (the first site's also to handshakes
/// without SNI or for another name).
struct ServerCertificateSink: IssuedCertificateSink {
    let server: LinkhostServer

    func install(chainPEM: String, keyPEM: String, hosts: [String]) throws {
        try server.serveCertificate(chainPEM: chainPEM, keyPEM: keyPEM, hosts: hosts)
    }
}
