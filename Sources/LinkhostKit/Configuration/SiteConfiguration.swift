import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// One site: the hosts it answers for, its app, its link rules, and its AASA file.
public struct SiteConfiguration: Sendable {
    /// Short stable name used in logs and the CLI (`rowhni`, `awful`).
    public var id: String
    /// Lower-case host names; a leading `*.` matches any subdomain (not the bare domain).
    public var hosts: [String]
    public var app: AppConfiguration
    /// Page languages, in order of preference when a visitor states none.
    public var languages: [String]
    /// The language of pages when `Accept-Language` names none of `languages`.
    public var defaultLanguage: String
    /// The ordered link rules and the site-wide pass-through parameters.
    public var router: LinkRouter
    /// Base URL of the web version, for "continue on the web" (`https://forums.somethingawful.com`).
    public var webBaseURL: String?
    /// Where the domain's root (`/`) sends visitors (`root`, an http(s) URL such as the app's web
    /// site); `nil` for the not-found page, as any path no rule serves.
    public var root: String?
    /// Path of the link-preview image under the public folder (`/static/og/awful.png`).
    public var previewImage: String?
    /// The AASA file served for every host of the site, exactly as it goes on the wire.
    public var aasa: AASAFile
    /// The assetlinks.json served for every host of the site, when the app has an Android block.
    public var assetLinks: AssetLinksFile?
    /// How the file relates to the rules, for the agreement check.
    public var aasaPolicy: AASAPolicy
    /// How fast one client network may report app opens and page events (`sites[].ingest.rateLimit`).
    public var ingestRateLimit: IngestRateLimit = .default

    /// Whether `host` (normalised) is one of the site's hosts, exactly or by a `*.` wildcard.
    public func lists(host: String) -> Bool {
        hosts.contains { HostPattern.matches(host, listed: $0) }
    }

    /// The host used in absolute URLs when a request's own Host is not one of the site's.
    public var primaryHost: String {
        hosts.first { !$0.hasPrefix("*.") } ?? String(hosts[0].dropFirst(2))
    }
}

/// How a site's AASA file relates to its link rules.
public struct AASAPolicy: Sendable, Equatable {
    /// Components the config adds before the rules' own (so rule `i` is component
    /// `extraComponentCount + i` of a generated file).
    public var extraComponentCount: Int
    /// Whether the file was generated from the rules (else it is `aasa.file`, served as written).
    public var isGenerated: Bool
    /// The config's explicit consent to components that open URLs no link rule serves.
    public var allowsComponentsWithoutPages: Bool

    public init(extraComponentCount: Int = 0, isGenerated: Bool = true, allowsComponentsWithoutPages: Bool = false) {
        self.extraComponentCount = extraComponentCount
        self.isGenerated = isGenerated
        self.allowsComponentsWithoutPages = allowsComponentsWithoutPages
    }
}
