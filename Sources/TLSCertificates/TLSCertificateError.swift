/// Why a certificate chain and key cannot be served, in words an operator can act on (GnuTLS's own
/// reason included).
public struct TLSCertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
