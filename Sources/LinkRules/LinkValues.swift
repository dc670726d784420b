/// The decoded values of a link's parameters by name, kept as a short list of pairs: a link has a
/// handful, and comparing a few short names costs less than hashing one (a page for a new link
/// looked its values up about a dozen times, each lookup a hash of the name).
public struct LinkValues: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)] = []

    /// No values, with room for `minimumCapacity` before the list grows.
    public init(minimumCapacity: Int = 0) {
        pairs.reserveCapacity(minimumCapacity)
    }

    /// The values of `dictionary`.
    public init(_ dictionary: [String: String]) {
        pairs = dictionary.map { (name: $0.key, value: $0.value) }
    }

    /// Values written out (`["threadid": "456"]`); a name given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value named `name`; setting one replaces the value of that name, and `nil` removes it.
    public subscript(name: String) -> String? {
        get {
            guard let index = index(of: name) else { return nil }
            return pairs[index].value
        }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): pairs[index].value = value
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let value?): pairs.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// How many values there are.
    public var count: Int { pairs.count }

    /// Equal when they hold the same values, in whatever order they were set.
    public static func == (lhs: LinkValues, rhs: LinkValues) -> Bool {
        lhs.count == rhs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Where `name` is in the list, compared as the dictionary compared keys (`==`, canonical
    /// equivalence), so a name finds exactly the value it found there.
    private func index(of name: String) -> Int? {
        for index in pairs.indices where pairs[index].name == name { return index }
        return nil
    }
}
