import TLSCertificates
import Testing

/// The store's choice per handshake, the certificate checks, and how long a swapped-out
/// certificate lives: in-process, no socket.
@Suite("Certificate store: the choice by SNI")
struct CertificateStoreTests {
    let certificates: TestCertificates

    init() throws {
        certificates = try TestCertificates()
    }

    @Test func eachHostGetsItsOwnAndEverythingElseTheDefault() throws {
        let first = try certificates.served(["rowhni.com"])
        let forums = try certificates.served(["forums.somethingawful.com", "archives.somethingawful.com"])
        let store = CertificateStore()
        #expect(store.isEmpty)
        #expect(store.certificate(forServerName: "rowhni.com") == nil)
        store.install(first, for: ["rowhni.com"], isDefault: true)
        store.install(forums, for: ["forums.somethingawful.com", "Archives.SomethingAwful.com"], isDefault: false)
        #expect(store.certificate(forServerName: "rowhni.com") === first)
        #expect(store.certificate(forServerName: "forums.somethingawful.com") === forums)
        // Names compare without case, both ways; exact names only, so a subdomain is unknown.
        #expect(store.certificate(forServerName: "FORUMS.somethingawful.COM") === forums)
        #expect(store.certificate(forServerName: "archives.somethingawful.com") === forums)
        #expect(store.certificate(forServerName: "www.rowhni.com") === first)
        #expect(store.certificate(forServerName: "nowhere.example") === first)
        #expect(store.certificate(forServerName: nil) === first)
        #expect(store.hostNames == ["archives.somethingawful.com", "forums.somethingawful.com", "rowhni.com"])
    }

    @Test func aRenewalReplacesOneHostsCertificateAndReplaceAllServesOneForAll() throws {
        let store = CertificateStore()
        let old = try certificates.served(["rowhni.com"])
        let other = try certificates.served(["forums.somethingawful.com"])
        store.install(old, for: ["rowhni.com"], isDefault: true)
        store.install(other, for: ["forums.somethingawful.com"], isDefault: false)
        let renewed = try certificates.served(["rowhni.com"])
        store.install(renewed, for: ["rowhni.com"], isDefault: true)
        #expect(store.certificate(forServerName: "rowhni.com") === renewed)
        #expect(store.certificate(forServerName: nil) === renewed)
        #expect(store.certificate(forServerName: "forums.somethingawful.com") === other)
        let files = try certificates.served(["rowhni.com", "forums.somethingawful.com"])
        store.replaceAll(default: files)
        #expect(store.hostNames.isEmpty)
        #expect(store.certificate(forServerName: "forums.somethingawful.com") === files)
        #expect(store.defaultCertificate === files)
    }

    /// GnuTLS keeps pointers into the chosen certificate for the whole session: the connection
    /// holds it, so a swap frees it only once the last connection that chose it is gone.
    @Test func aSwappedOutCertificateLivesUntilItsLastConnectionCloses() throws {
        let store = CertificateStore()
        weak var retired: ServedCertificate?
        var connection: ConnectionCertificate? = ConnectionCertificate(store: store)
        do {
            let old = try certificates.served(["rowhni.com"])
            retired = old
            store.install(old, for: ["rowhni.com"], isDefault: true)
        }
        #expect(connection?.certificate == nil)
        // What the callback does per handshake: choose, and keep.
        #expect(connection?.choose(forServerName: "rowhni.com") === retired)
        #expect(connection?.certificate === retired)
        store.install(try certificates.served(["rowhni.com"]), for: ["rowhni.com"], isDefault: true)
        #expect(retired != nil, "a connection that chose it still holds it")
        connection = nil
        #expect(retired == nil, "freed with its last connection")
    }

    /// A renegotiation after a swap chooses the new certificate on the same session: the first one
    /// stays alive beside it until the connection closes.
    @Test func aRenegotiationKeepsTheFirstCertificateToo() throws {
        let store = CertificateStore()
        weak var first: ServedCertificate?
        var connection: ConnectionCertificate? = ConnectionCertificate(store: store)
        do {
            let old = try certificates.served(["rowhni.com"])
            first = old
            store.install(old, for: ["rowhni.com"], isDefault: true)
        }
        _ = connection?.choose(forServerName: "rowhni.com")
        let renewed = try certificates.served(["rowhni.com"])
        store.install(renewed, for: ["rowhni.com"], isDefault: true)
        #expect(connection?.choose(forServerName: "rowhni.com") === renewed)
        #expect(connection?.certificate === renewed)
        #expect(first != nil, "the session that used it is the same session")
        connection = nil
        #expect(first == nil)
    }

    @Test func unusableChainsAndKeysSayWhy() throws {
        let issued = try certificates.pem(["rowhni.com"])
        let other = try certificates.pem(["other.example"])
        #expect {
            try ServedCertificate(chainPEM: "not a certificate", keyPEM: issued.privateKeyPEM)
        } throws: { "\($0)".contains("the certificate chain cannot be read") }
        #expect {
            try ServedCertificate(chainPEM: issued.certificateChainPEM, keyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        } throws: { "\($0)".contains("the private key cannot be read") }
        #expect {
            try ServedCertificate(chainPEM: issued.certificateChainPEM, keyPEM: other.privateKeyPEM)
        } throws: { "\($0)".contains("does not belong to the certificate") }
        // The chain is sent as given, the server's certificate first: a chain the other way round
        // is refused (its first certificate is the CA's).
        let blocks = issued.certificateChainPEM.components(separatedBy: "-----END CERTIFICATE-----\n").filter { $0.contains("BEGIN") }
        let reversed = blocks.reversed().map { $0 + "-----END CERTIFICATE-----\n" }.joined()
        #expect {
            try ServedCertificate(chainPEM: reversed, keyPEM: issued.privateKeyPEM)
        } throws: { "\($0)".contains("the first of the chain") }
    }
}
