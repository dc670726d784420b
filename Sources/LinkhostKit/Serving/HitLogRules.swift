import LinkRules

/// What the hit logger needs of the sites being served: per site, the names of its secret
/// parameters and, by rule name, the rules that have any (in rule order: the first secret pairs
/// views with opens).
///
/// Built with each serving set and carried with every exchange answered from that set, so a row
/// is always written with the rules that answered it: a reload that makes a parameter secret hashes
/// it from the first request the new rules answer, and a request answered just before the swap is
/// still logged with the rules it was routed by.
final class HitLogRules: Sendable {
    struct Site: Sendable {
        let secretNames: Set<String>
        let rulesWithSecrets: [String: LinkRule]
    }

    private let sites: [String: Site]

    init(sites: [SiteConfiguration]) {
        var rules: [String: Site] = [:]
        for site in sites {
            let secretNames = Set(site.router.rules.flatMap(\.secretParameterNames))
            let secretRules = site.router.rules.filter { rule in rule.parameters.contains(where: \.isSecret) }
            rules[site.id] = Site(secretNames: secretNames, rulesWithSecrets: Dictionary(uniqueKeysWithValues: secretRules.map { ($0.name, $0) }))
        }
        self.sites = rules
    }

    /// The rules of site `id`, `nil` for no site (or an unknown one).
    func site(_ id: String?) -> Site? { id.flatMap { sites[$0] } }
}
