import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// Everything one config file says: how the server runs and which sites it fronts. Only
/// `ConfigurationLoader` makes one, after every check, and it cannot change afterwards: command-line
/// overrides go in through `ConfigurationOverrides`, before the checks.
public struct LinkhostConfiguration: Sendable {
    public let server: ServerSettings
    public let sites: [SiteConfiguration]
    /// The hit log.
    public let log: LogSettings
    /// The folder relative paths in the file are resolved against (the config file's folder).
    public let baseDirectory: String

    /// The site with the given id.
    public func site(id: String) -> SiteConfiguration? { sites.first { $0.id == id } }
}
