/// What of a client's IP address the log keeps. The default keeps the network, not the person:
/// enough to see where traffic comes from, not enough to single out one device.
public enum ClientAddressPolicy: String, Sendable, CaseIterable {
    /// IPv4 cut to its /24 (`203.0.113.0`), IPv6 to its /48 (`2001:db8:1::`).
    case truncated
    /// No address at all.
    case omit

    /// The address as this policy stores it; `nil` when omitted or when `address` is not an IP address.
    public func apply(to address: String?) -> String? {
        switch self {
        case .omit: nil
        case .truncated: address.flatMap(Self.truncate)
        }
    }
}
