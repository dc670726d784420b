extension LogRecord {
    /// The UTM parameter names that have their own columns.
    public static let utmParameterNames: [String] = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]

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
        for (name, value) in query {
            switch name {
            case "utm_source": if utmSource == nil { utmSource = value }
            case "utm_medium": if utmMedium == nil { utmMedium = value }
            case "utm_campaign": if utmCampaign == nil { utmCampaign = value }
            case "utm_term": if utmTerm == nil { utmTerm = value }
            case "utm_content": if utmContent == nil { utmContent = value }
            default:
                guard !trackedParameters.contains(where: { $0.name == name }) else { continue }
                if secret.contains(name) {
                    // Without a hasher a secret is dropped, never stored in clear.
                    if let hasher { trackedParameters.append((name, hasher.token(for: value))) }
                } else if tracked.contains(name) {
                    trackedParameters.append((name, value))
                }
            }
        }
    }
}
