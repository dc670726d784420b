/// One kind of link a site serves: the URLs it matches, what it opens in the app, and what its
/// fallback page says. A site's rules are ordered; the first that matches a link decides, as in an
/// AASA file.
public struct LinkRule: Sendable, Equatable {
    /// Stable name used in logs, the CLI and statistics (`threadPage`, `addfriend`).
    public var name: String
    public var path: PathTemplate
    /// Path placeholders and query parameters, in the order written.
    public var parameters: [LinkParameter]
    public var appURL: AppURLTemplate
    /// What the link is, for people ("Thread {threadid}, page {pagenumber}").
    public var title: LocalizedText
    /// One or two sentences under the title (and in link previews).
    public var summary: LocalizedText?
    /// How error pages name this kind of link ("invite link", "Einladungslink").
    public var noun: LocalizedText?
    /// Links (path and query) that must route to this rule; checked at start-up.
    public var examples: [String]
    /// The AASA component's `comment`.
    public var comment: String?
    /// Whether path and fixed values compare case-sensitively (AASA's default is yes).
    public var caseSensitive: Bool
    /// Whether the page offers "continue on the web" (when the site has a web base URL).
    public var continueOnWeb: Bool

    public init(
        name: String, path: PathTemplate, parameters: [LinkParameter], appURL: AppURLTemplate, title: LocalizedText,
        summary: LocalizedText? = nil, noun: LocalizedText? = nil, examples: [String] = [], comment: String? = nil,
        caseSensitive: Bool = true, continueOnWeb: Bool = true
    ) {
        self.name = name
        self.path = path
        self.parameters = parameters
        self.appURL = appURL
        self.title = title
        self.summary = summary
        self.noun = noun
        self.examples = examples
        self.comment = comment
        self.caseSensitive = caseSensitive
        self.continueOnWeb = continueOnWeb
    }

    /// The parameter named `name`.
    public func parameter(_ name: String) -> LinkParameter? { parameters.first { $0.name == name } }

    /// Query parameters only.
    public var queryParameters: [LinkParameter] { parameters.filter { $0.location == .query } }

    /// Names of parameters whose values are bearer secrets.
    public var secretParameterNames: Set<String> { Set(parameters.filter(\.isSecret).map(\.name)) }
}
