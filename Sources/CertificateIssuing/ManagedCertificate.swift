/// One certificate the manager keeps: its storage name (a site's id) and the hosts it names.
public struct ManagedCertificate: Sendable, Equatable {
    /// The name of its folder in the ACME storage (letters, digits, `.`, `-`, `_`).
    public var id: String
    /// The DNS names of the certificate, the first one its common name.
    public var hosts: [String]

    public init(id: String, hosts: [String]) {
        self.id = id
        self.hosts = hosts
    }
}
