import DevCertificates
import Foundation
import TLSCertificates
import TestSupport

/// Certificates from one in-process development CA, each naming the hosts it is issued for (its
/// subject's common name is the first), and the CA file clients verify them with.
struct TestCertificates: Sendable {
    let folder: TemporaryDirectory
    let authority: DevCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory("tls-certificates")
        authority = try DevCertificateAuthority.loadOrCreate(in: folder.path).0
    }

    var caFile: String { folder.path + "/" + DevCertificateAuthority.certificateFileName }

    /// A certificate and key for `hosts`, as PEM.
    func pem(_ hosts: [String]) throws -> DevHostCertificate {
        try authority.issue(hosts: hosts)
    }

    /// A certificate for `hosts`, parsed for serving.
    func served(_ hosts: [String]) throws -> ServedCertificate {
        let issued = try pem(hosts)
        return try ServedCertificate(chainPEM: issued.certificateChainPEM, keyPEM: issued.privateKeyPEM)
    }
}
