import Foundation

/// What one step of an order left to do.
public enum ACMEOrderStep: Sendable {
    /// Take the next step now.
    case proceed
    /// Take the next step at this time (the server's `Retry-After`, bounded, or the poll interval).
    case wait(until: Date)
    /// The certificate is issued and saved.
    case issued(ACMEIssuedCertificate)
}
