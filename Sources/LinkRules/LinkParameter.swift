/// One parameter of a link rule: where it is, what it must be, and how it is treated.
public struct LinkParameter: Sendable, Equatable {
    /// What a parameter's value must be for the rule to match the link.
    public enum Constraint: Sendable, Equatable {
        /// A value of this type; `required` says whether the rule needs it present.
        case typed(ParameterType, required: Bool)
        /// Exactly this value, in every occurrence (`goto=post`).
        case fixed(String)
        /// Not present, or present with an empty value (AASA reads both as "").
        case absent
    }

    /// Where a parameter sits in the URL.
    public enum Location: Sendable, Equatable {
        /// A `{name}` segment of the path template.
        case path
        /// A query item.
        case query
    }

    public var name: String
    public var location: Location
    public var constraint: Constraint
    /// A bearer secret (an invite code): never logged in clear.
    public var isSecret: Bool
    /// Shown on the page with a copy button (the app reads a copied link after install).
    public var isCopyable: Bool
    /// Name for people on error pages ("code", "Code"); defaults to the parameter name.
    public var label: LocalizedText?

    public init(
        name: String, location: Location = .query, constraint: Constraint, isSecret: Bool = false, isCopyable: Bool = false, label: LocalizedText? = nil
    ) {
        self.name = name
        self.location = location
        self.constraint = constraint
        self.isSecret = isSecret
        self.isCopyable = isCopyable
        self.label = label
    }

    /// Whether the rule needs the parameter to be present and non-empty to match.
    public var isRequired: Bool {
        switch constraint {
        case .typed(_, let required): required || location == .path
        case .fixed: true
        case .absent: false
        }
    }

    /// The type values must have, for typed parameters.
    ///
    /// Not inlined into other modules: Swift 6.3.1's optimizer (CopyPropagation) crashes on this
    /// switch when cross-module optimization inlines it into a closure in a `-c release` build.
    public var type: ParameterType? {
        @inline(never) get {
            if case .typed(let type, _) = constraint { return type }
            return nil
        }
    }
}
