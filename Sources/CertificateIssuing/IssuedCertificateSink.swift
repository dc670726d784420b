/// Where an issued (or loaded) certificate goes to be served: the TLS listener's certificate store.
/// `install` replaces what `hosts` were served with; it throws when the chain or key cannot be used,
/// and the manager then records the error and keeps the certificate for the next attempt.
public protocol IssuedCertificateSink: Sendable {
    func install(chainPEM: String, keyPEM: String, hosts: [String]) throws
}
