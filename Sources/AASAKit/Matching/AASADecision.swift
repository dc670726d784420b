/// What an AASA file says about one URL.
public enum AASADecision: String, Sendable, Hashable {
    /// A rule matched: the app opens the link.
    case match
    /// An `exclude` rule (or a `NOT ` path) matched first: the link stays in the browser.
    case exclude
    /// No rule matched (or the URL is on another host): the link stays in the browser.
    case none
}
