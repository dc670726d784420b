import PercentCoding

/// Building the web link of a rule from values: for `linkhost link`, for a page's canonical URL,
/// and for example checks.
extension LinkRule {
    /// Why a link cannot be built from the given values.
    public enum LinkBuildError: Error, Sendable, Equatable, CustomStringConvertible {
        case missing(String)
        case malformed(String, ParameterType)
        case unknown(String)

        public var description: String {
            switch self {
            case .missing(let name): "\(name) is required"
            case .malformed(let name, let type): "\(name) must be \(type.requirement)"
            case .unknown(let name): "the rule has no parameter \(name)"
            }
        }
    }

    /// `path?query` for decoded `values` (fixed parameters are filled in), followed by `extraQuery`
    /// items (UTM parameters). Values are checked against their types.
    public func link(values: [String: String], extraQuery: [(name: String, value: String)] = []) throws -> String {
        var built = TextBuilder()
        try link(values: values, extraQuery: extraQuery, into: &built)
        return built.text
    }

    /// Appends `path?query` for decoded `values` (see `link(values:extraQuery:)`): a page's canonical
    /// URL is its origin and this, made for every new link. When it throws, `link` may hold part of
    /// the path: start again from a fresh builder.
    public func link(values: [String: String], extraQuery: [(name: String, value: String)] = [], into link: inout TextBuilder) throws {
        for name in values.keys where parameter(name) == nil { throw LinkBuildError.unknown(name) }
        for parameter in parameters {
            guard case .typed(let type, _) = parameter.constraint else { continue }
            guard let value = values[parameter.name], !value.isEmpty else {
                if parameter.isRequired { throw LinkBuildError.missing(parameter.name) }
                continue
            }
            guard type.accepts(value) else { throw LinkBuildError.malformed(parameter.name, type) }
        }
        try self.link(checkedValues: LinkValues(values), extraQuery: extraQuery, into: &link)
    }

    /// Appends `path?query` for values already checked against this rule: a `LinkMatch`'s, which
    /// routing checked (a page's canonical URL, made for every new link, so they are not checked a
    /// second time). Throws only when a path placeholder has no value.
    public func link(checkedValues values: LinkValues, extraQuery: [(name: String, value: String)] = [], into link: inout TextBuilder) throws {
        guard path.expand(values, into: &link) else {
            throw LinkBuildError.missing(path.placeholderNames.first { (values[$0] ?? "").isEmpty } ?? "?")
        }
        // Items joined by `&` as they are placed, after the path.
        var separator = UInt8(ascii: "?")
        func add(_ name: String, _ value: String) {
            link.append(ascii: separator)
            separator = UInt8(ascii: "&")
            link.append(percentEncoding: name)
            link.append(ascii: UInt8(ascii: "="))
            link.append(percentEncoding: value)
        }
        for parameter in parameters {
            switch parameter.constraint {
            case .fixed(let fixed): add(parameter.name, fixed)
            case .absent: continue
            case .typed:
                if parameter.location == .query, let value = values[parameter.name], !value.isEmpty { add(parameter.name, value) }
            }
        }
        for item in extraQuery { add(item.name, item.value) }
    }
}
