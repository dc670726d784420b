import Foundation

/// Where a reported link leads in the app, as the link host's rules decided it: the app can use it
/// as its router instead of parsing the link again, so the server, the AASA file and the app agree
/// on what each link means.
public struct LinkRoute: Sendable, Hashable, Codable {
    /// The id of the site in the server's config (for example `rowhni`).
    public let site: String
    /// The name of the link rule that matched (for example `addfriend`).
    public let rule: String
    /// The in-app URL the rule builds from the link (for example `rowhni://addfriend?code=ABC123`).
    public let appURL: URL
    /// The rule's parameters read from the link, by name (for example `["code": "ABC123"]`).
    public let parameters: [String: String]

    /// Makes a route by hand, for previews and tests of the code that consumes routes.
    public init(site: String, rule: String, appURL: URL, parameters: [String: String]) {
        self.site = site
        self.rule = rule
        self.appURL = appURL
        self.parameters = parameters
    }
}
