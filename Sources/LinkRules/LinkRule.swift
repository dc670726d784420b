/// One kind of link a site serves: the URLs it matches, what it opens in the app, and what its
/// fallback page says. A site's rules are ordered; the first that matches a link decides, as in an
/// AASA file.
public struct LinkRule: Sendable, Equatable {
    /// Stable name used in logs, the CLI and statistics (`threadPage`, `addfriend`).
    public var name: String {
        get { box.fields.name }
        set { update { $0.name = newValue } }
    }
    public var path: PathTemplate {
        get { box.fields.path }
        set { update { $0.path = newValue } }
    }
    /// Path placeholders and query parameters, in the order written.
    public var parameters: [LinkParameter] {
        get { box.fields.parameters }
        set { update { $0.parameters = newValue } }
    }
    public var appURL: AppURLTemplate {
        get { box.fields.appURL }
        set { update { $0.appURL = newValue } }
    }
    /// What the link is, for people ("Thread {threadid}, page {pagenumber}").
    public var title: LocalizedText {
        get { box.fields.title }
        set { update { $0.title = newValue } }
    }
    /// One or two sentences under the title (and in link previews).
    public var summary: LocalizedText? {
        get { box.fields.summary }
        set { update { $0.summary = newValue } }
    }
    /// How error pages name this kind of link ("invite link", "Einladungslink").
    public var noun: LocalizedText? {
        get { box.fields.noun }
        set { update { $0.noun = newValue } }
    }
    /// Links (path and query) that must route to this rule; checked at start-up.
    public var examples: [String] {
        get { box.fields.examples }
        set { update { $0.examples = newValue } }
    }
    /// The AASA component's `comment`.
    public var comment: String? {
        get { box.fields.comment }
        set { update { $0.comment = newValue } }
    }
    /// Whether path and fixed values compare case-sensitively (AASA's default is yes).
    public var caseSensitive: Bool {
        get { box.fields.caseSensitive }
        set { update { $0.caseSensitive = newValue } }
    }
    /// Whether the page offers "continue on the web" (when the site has a web base URL).
    public var continueOnWeb: Bool {
        get { box.fields.continueOnWeb }
        set { update { $0.continueOnWeb = newValue } }
    }

    /// The rule's fields in one shared, immutable box: a rule travels with every routed request
    /// (the match, the hit log's record, the page cache), and copying it is then one reference
    /// instead of a score of them. Changing a field (only while a config is read) makes a new box.
    private var box: LinkRuleFields.Box

    public init(
        name: String, path: PathTemplate, parameters: [LinkParameter], appURL: AppURLTemplate, title: LocalizedText,
        summary: LocalizedText? = nil, noun: LocalizedText? = nil, examples: [String] = [], comment: String? = nil,
        caseSensitive: Bool = true, continueOnWeb: Bool = true
    ) {
        box = LinkRuleFields.Box(
            LinkRuleFields(
                name: name, path: path, parameters: parameters, appURL: appURL, title: title, summary: summary, noun: noun, examples: examples,
                comment: comment, caseSensitive: caseSensitive, continueOnWeb: continueOnWeb))
    }

    private mutating func update(_ change: (inout LinkRuleFields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = LinkRuleFields.Box(fields)
    }

    /// The same for a rule and its copies (they share their fields' box), so that what is worked
    /// out once per rule at load is found for a routed link without hashing the rule's name.
    package var identity: ObjectIdentifier { ObjectIdentifier(box) }

    /// The parameter named `name`.
    public func parameter(_ name: String) -> LinkParameter? { parameters.first { $0.name == name } }

    /// Query parameters only.
    public var queryParameters: [LinkParameter] { parameters.filter { $0.location == .query } }

    /// Names of parameters whose values are bearer secrets.
    public var secretParameterNames: Set<String> { Set(parameters.filter(\.isSecret).map(\.name)) }
}

/// A `LinkRule`'s stored fields (see `LinkRule` for what each means).
struct LinkRuleFields: Sendable, Equatable {
    var name: String
    var path: PathTemplate
    var parameters: [LinkParameter]
    var appURL: AppURLTemplate
    var title: LocalizedText
    var summary: LocalizedText?
    var noun: LocalizedText?
    var examples: [String]
    var comment: String?
    var caseSensitive: Bool
    var continueOnWeb: Bool

    /// The fields of one rule, shared by its copies; equal when the fields are.
    final class Box: Sendable, Equatable {
        let fields: LinkRuleFields
        init(_ fields: LinkRuleFields) { self.fields = fields }

        static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
    }
}
