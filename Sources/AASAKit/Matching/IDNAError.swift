/// Why a host name is not a valid internationalised domain name; the message names the label.
public struct IDNAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host as given.
    public let host: String
    /// What is wrong, naming the label: `the label "xn--zz" is not valid Punycode`.
    public let reason: String

    public init(host: String, reason: String) {
        self.host = host
        self.reason = reason
    }

    public var description: String { "\"\(host)\" is not a valid host name: \(reason)" }
}
