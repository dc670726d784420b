import Foundation
import SwiftASN1
import X509

/// A certificate the CA issued, with its private key: what a TLS listener serves.
public struct ACMEIssuedCertificate: Sendable {
    /// The chain as downloaded, leaf first (PEM, ending with a line break).
    public let chainPEM: String
    public let privateKeyPEM: String
    /// The chain parsed, leaf first.
    public let certificates: [Certificate]

    /// Parses `chainPEM` and checks that its leaf belongs to the private key and that each
    /// certificate of the chain is signed by the next.
    public init(chainPEM: String, privateKeyPEM: String) throws(ACMEError) {
        let key = try ACMECertificateKey(pemRepresentation: privateKeyPEM)
        let certificates: [Certificate]
        do {
            certificates = try PEMDocument.parseMultiple(pemString: chainPEM).filter { $0.discriminator == "CERTIFICATE" }.map {
                try Certificate(derEncoded: $0.derBytes)
            }
        } catch {
            throw ACMEError.badCertificate(detail: "the chain is not PEM certificates: \(error)")
        }
        guard let leaf = certificates.first else { throw ACMEError.badCertificate(detail: "the chain holds no certificate") }
        guard leaf.publicKey == key.privateKey.publicKey else {
            throw ACMEError.badCertificate(detail: "the certificate is not for this order's key")
        }
        for (child, parent) in zip(certificates, certificates.dropFirst()) where !parent.publicKey.isValidSignature(child.signature, for: child) {
            throw ACMEError.badCertificate(detail: "\(child.subject) is not signed by the next certificate of the chain, \(parent.subject)")
        }
        // Each ends with a line break, so the two concatenated (as storage keeps them) stay PEM.
        self.chainPEM = chainPEM.hasSuffix("\n") ? chainPEM : chainPEM + "\n"
        self.privateKeyPEM = privateKeyPEM.hasSuffix("\n") ? privateKeyPEM : privateKeyPEM + "\n"
        self.certificates = certificates
    }

    public var leaf: Certificate { certificates[0] }

    /// The DNS names of the leaf's subjectAltName.
    public var names: [String] {
        guard let names = try? leaf.extensions.subjectAlternativeNames else { return [] }
        return names.compactMap {
            if case .dnsName(let name) = $0 { return name }
            return nil
        }
    }

    public var notBefore: Date { leaf.notValidBefore }
    public var notAfter: Date { leaf.notValidAfter }

    /// Throws unless the leaf names every one of `names` (compared without case).
    func check(names wanted: [String]) throws(ACMEError) {
        let have = Set(names.map { $0.lowercased() })
        let missing = wanted.filter { !have.contains($0.lowercased()) }
        if !missing.isEmpty { throw ACMEError.badCertificate(detail: "the certificate does not name \(missing.joined(separator: ", "))") }
    }
}
