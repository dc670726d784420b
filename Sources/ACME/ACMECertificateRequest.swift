import SwiftASN1
import X509

/// The CSR sent to `finalize` (RFC 8555 §7.4, RFC 2986): every name as a DNS subjectAltName, the
/// first as the common name too when it fits (64 characters), signed with the certificate's key.
enum ACMECertificateRequest {
    static func der(names: [String], key: ACMECertificateKey) throws(ACMEError) -> [UInt8] {
        do {
            let subject =
                if let first = names.first, first.count <= 64 {
                    try DistinguishedName { CommonName(first) }
                } else {
                    DistinguishedName()
                }
            let extensions = try Certificate.Extensions { SubjectAlternativeNames(names.map { .dnsName($0) }) }
            let attributes = try CertificateSigningRequest.Attributes([.init(ExtensionRequest(extensions: extensions))])
            let request = try CertificateSigningRequest(
                version: .v1, subject: subject, privateKey: key.privateKey, attributes: attributes, signatureAlgorithm: key.signatureAlgorithm)
            var serializer = DER.Serializer()
            try serializer.serialize(request)
            return serializer.serializedBytes
        } catch {
            throw ACMEError.storage(path: "certificate request", detail: "could not make the CSR: \(error)")
        }
    }
}
