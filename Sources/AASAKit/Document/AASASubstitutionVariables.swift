/// The custom substitution variables of one file, looked up by their case-sensitive name.
public struct AASASubstitutionVariables: Sendable {
    /// The definitions in document order.
    public let variables: [AASASubstitutionVariable]
    private let indexByName: [String: Int]

    /// No custom variables; only the predefined ones are available.
    public init() { self.init([]) }

    /// Variables from definitions; when a name repeats, the last definition wins (as in the JSON reader).
    public init(_ variables: [AASASubstitutionVariable]) {
        self.variables = variables
        var index: [String: Int] = [:]
        for (position, variable) in variables.enumerated() { index[variable.name] = position }
        indexByName = index
    }

    /// Variables from name/values pairs, for building a file in code or in tests.
    public init(_ pairs: KeyValuePairs<String, [String]>) {
        self.init(pairs.map { AASASubstitutionVariable(name: $0.key, values: $0.value) })
    }

    /// The alternatives of the custom variable `name`, or `nil` when the file does not define it.
    public subscript(name: String) -> [String]? {
        guard let position = indexByName[name], variables.indices.contains(position) else { return nil }
        return variables[position].values
    }
}
