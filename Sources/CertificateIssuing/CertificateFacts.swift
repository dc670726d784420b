import Foundation
import SwiftASN1
import X509

/// The facts of a PEM chain's leaf that `linkhost certificates` and the health report show.
public struct CertificateFacts: Sendable, Equatable {
    public var issuer: String
    public var serial: String
    public var notBefore: Date
    public var notAfter: Date
    public var names: [String]

    public init(leaf: Certificate) {
        issuer = leaf.issuer.description
        serial = leaf.serialNumber.bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
        notBefore = leaf.notValidBefore
        notAfter = leaf.notValidAfter
        names =
            ((try? leaf.extensions.subjectAlternativeNames) ?? nil)?.compactMap {
                if case .dnsName(let name) = $0 { return name }
                return nil
            } ?? []
    }

    /// The facts of the first certificate of `pem`; `nil` when it holds none.
    public init?(pem: String) {
        guard let documents = try? PEMDocument.parseMultiple(pemString: pem),
            let first = documents.first(where: { $0.discriminator == "CERTIFICATE" }),
            let leaf = try? Certificate(derEncoded: first.derBytes)
        else { return nil }
        self.init(leaf: leaf)
    }
}
