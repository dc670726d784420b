import HTTPServing
import LinkRules

/// A configured site made ready to serve: every fixed response is built once at start-up, so a
/// request for the AASA file or assetlinks.json costs a host lookup and a queue call, nothing more.
/// It also carries what the hit log needs of the site's rules, so a row is always written with the
/// rules that answered its request, even when a reload swapped them meanwhile.
final class HostedSite: Sendable {
    let configuration: SiteConfiguration
    let aasa: PreparedWellKnownFile
    /// `nil` when the app has no Android block: the path then answers 404.
    let assetLinks: PreparedWellKnownFile?
    let pages: SitePages
    /// The names of the rules' secret parameters (invite codes), hashed wherever they are logged.
    let secretNames: Set<String>
    /// The names of the rules that have a secret parameter.
    let rulesWithSecrets: Set<String>

    init(_ configuration: SiteConfiguration, cacheControl: String, pages: SitePages, commonHeaders: CommonHeaders) throws(HTTPServerError) {
        self.configuration = configuration
        self.pages = pages
        aasa = try PreparedWellKnownFile(bytes: configuration.aasa.bytes, cacheControl: cacheControl, commonHeaders: commonHeaders)
        if let file = configuration.assetLinks {
            assetLinks = try PreparedWellKnownFile(bytes: file.bytes, cacheControl: cacheControl, commonHeaders: commonHeaders)
        } else {
            assetLinks = nil
        }
        let rules = configuration.router.rules
        secretNames = Set(rules.flatMap(\.secretParameterNames))
        rulesWithSecrets = Set(rules.filter { $0.parameters.contains(where: \.isSecret) }.map(\.name))
    }
}
