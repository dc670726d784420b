/// Where a link leads: a rule's page, a broken link of a rule, or nowhere.
public enum RouteResult: Sendable, Equatable {
    /// A rule matched and every value is acceptable.
    case page(LinkMatch)
    /// A rule recognises the link, but a value is missing or malformed; the rule named is the one
    /// the link came closest to, and `captures` its path placeholders as sent (still percent-encoded).
    case badLink(rule: LinkRule, problem: LinkProblem, captures: [String: String])
    /// No rule serves this path.
    case noRule
}

/// A link matched to a rule, with its decoded values and the app URL it opens.
public struct LinkMatch: Sendable, Equatable {
    public var rule: LinkRule
    /// Decoded values of the rule's parameters that the link carries (fixed ones included).
    public var values: LinkValues
    /// Site-wide pass-through parameters present and valid (`noseen=1`), in link order.
    public var passThrough: [PassThroughValue]
    /// The custom-scheme URL for the app.
    public var appURL: String
    /// The path placeholders as sent (still percent-encoded), so a log can rebuild the path with
    /// secrets replaced without matching it again.
    public var captures: [String: String]

    public init(rule: LinkRule, values: LinkValues, passThrough: [PassThroughValue], appURL: String, captures: [String: String] = [:]) {
        self.rule = rule
        self.values = values
        self.passThrough = passThrough
        self.appURL = appURL
        self.captures = captures
    }

    public static func == (lhs: LinkMatch, rhs: LinkMatch) -> Bool {
        lhs.rule == rhs.rule && lhs.values == rhs.values && lhs.passThrough == rhs.passThrough && lhs.appURL == rhs.appURL
    }
}

/// One pass-through query item carried from the web link to the app URL.
public struct PassThroughValue: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
