import Foundation

/// Where an order stands, saved after every change so a restart continues it from its URL
/// instead of ordering again.
public struct ACMEOrderState: Codable, Sendable, Equatable {
    public enum Phase: String, Codable, Sendable {
        /// No order yet (or the last one failed): the next step orders.
        case ordering
        /// The order is pending: authorizations are being proved.
        case authorizing
        /// The order is ready or processing: the CSR is sent or being signed.
        case finalizing
        /// The order is valid: the chain is to be downloaded.
        case downloading
        /// The chain was downloaded and saved; the flow is done.
        case issued
    }

    /// The names of the certificate, in the order given (the first is the common name).
    public var names: [String]
    public var phase: Phase
    public var orderURL: String?
    public var certificateURL: String?
    /// When the current order was created.
    public var orderedAt: Date?
    /// Tokens published to the challenge responder, withdrawn when the order ends.
    public var publishedTokens: [String]

    public init(names: [String]) {
        self.names = names
        phase = .ordering
        publishedTokens = []
    }

    /// Whether this state is for a certificate naming exactly `names` (in any order, any case).
    func isFor(_ names: [String]) -> Bool {
        Set(self.names.map { $0.lowercased() }) == Set(names.map { $0.lowercased() })
    }
}
