extension LogRecord {
    /// The UTM parameter names that have their own columns (`HitTable`'s columns filled from the query).
    public static let utmParameterNames: [String] = HitTable.queryParameters.names

    /// Files a request's query parameters into the record: `utm_*` into their columns, names in
    /// `tracked` into `trackedParameters` as they are, names in `secret` into `trackedParameters` as
    /// `hasher` tokens (so invite codes can be counted but not read). Everything else is not logged.
    /// A name in both sets counts as secret. For repeated names the first value wins.
    public mutating func takeParameters(
        from query: [(name: String, value: String)],
        tracked: Set<String> = [],
        secret: Set<String> = [],
        hasher: SecretHasher? = nil
    ) {
        takeParameters(from: query, tracked: tracked, secret: secret, token: hasher.map { hasher in { hasher.token(for: $0) } })
    }

    /// `takeParameters(from:tracked:secret:hasher:)` with the secrets' tokens made by `token` (a
    /// request that hashes the same secret for its path, its query and here asks once).
    public mutating func takeParameters(
        from query: [(name: String, value: String)],
        tracked: Set<String> = [],
        secret: Set<String> = [],
        token: ((String) -> String)?
    ) {
        guard !query.isEmpty else { return }
        let columns = HitTable.queryParameters
        for (name, value) in query {
            if let index = columns.names.firstIndex(of: name) {
                let offset = columns.offsets[index]
                withUnsafeMutablePointer(to: &self) { record in
                    let field = record.field(at: offset, as: String?.self)
                    if field.pointee == nil { field.pointee = value }
                }
                continue
            }
            // The sets are empty unless the configuration names parameters: then no name is hashed.
            let isSecret = !secret.isEmpty && secret.contains(name)
            guard isSecret || (!tracked.isEmpty && tracked.contains(name)) else { continue }
            guard !trackedParameters.contains(where: { $0.name == name }) else { continue }
            if !isSecret {
                trackedParameters.append((name, value))
            } else if let token {
                trackedParameters.append((name, token(value)))
            }
            // Without a hasher a secret is dropped, never stored in clear.
        }
    }
}
