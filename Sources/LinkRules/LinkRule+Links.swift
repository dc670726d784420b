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
        for name in values.keys where parameter(name) == nil { throw LinkBuildError.unknown(name) }
        // Items joined by `&` as they are made: this runs for every page of a new link.
        var query = ""
        func add(_ name: String, _ value: String) {
            if !query.isEmpty { query += "&" }
            query += PercentCoding.encode(name)
            query += "="
            query += PercentCoding.encode(value)
        }
        for parameter in parameters {
            let value = values[parameter.name]
            switch parameter.constraint {
            case .fixed(let fixed):
                add(parameter.name, fixed)
                continue
            case .absent:
                continue
            case .typed(let type, _):
                guard let value, !value.isEmpty else {
                    if parameter.isRequired { throw LinkBuildError.missing(parameter.name) }
                    continue
                }
                guard type.accepts(value) else { throw LinkBuildError.malformed(parameter.name, type) }
                if parameter.location == .query { add(parameter.name, value) }
            }
        }
        for item in extraQuery { add(item.name, item.value) }
        guard var link = path.expand(values) else {
            throw LinkBuildError.missing(path.placeholderNames.first { (values[$0] ?? "").isEmpty } ?? "?")
        }
        if !query.isEmpty {
            link += "?"
            link += query
        }
        return link
    }
}
