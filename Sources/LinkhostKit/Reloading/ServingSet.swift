import Foundation
import HTTPServing
import LinkLog
import OrderedJSON

/// Everything requests are answered from that a reload replaces, built in full before it serves:
/// the configuration, each site with its prepared AASA responses, page renderer and what the hit
/// logger needs of its rules, the static files, and the ingest keys.
///
/// Immutable once built. A request takes the current set once, at its start, and uses it to the
/// end (its hit-log row included), so a reload never mixes two configurations in one answer; a set
/// is freed when the last request that took it is done.
final class ServingSet: Sendable {
    let configuration: LinkhostConfiguration
    let responder: LinkhostResponder
    /// What the plain-HTTP listener answers while HTTPS is on: the same answers without
    /// `Strict-Transport-Security`, which a server must not send over plain HTTP (RFC 6797 §7.2);
    /// `responder` itself when there is no such header to leave out.
    let plainResponder: LinkhostResponder
    /// 1 for the configuration the server started with, one more for each applied reload.
    let generation: Int
    /// The detailed health report's `sites` section for these sites (the AASA tags hash the files,
    /// so it is built once per set).
    let healthSites: JSONValue

    /// Prepares every response of `configuration`.
    /// - Parameters:
    ///   - limiter: the ingest rate limits, shared by every set so a reload does not refill them.
    ///   - health: the server's health report, shared by every set.
    ///   - clientClasses: the server's memory of User-Agent classes, shared by every set.
    init(
        configuration: LinkhostConfiguration, ingestKeys: IngestKeys, limiter: TokenBucketLimiter, health: HealthReporter, generation: Int,
        clientClasses: ClientClassCache = ClientClassCache()
    ) throws {
        self.configuration = configuration
        self.generation = generation
        healthSites = HealthReporter.sitesSection(configuration.sites)
        let settings = configuration.server
        let commonHeaders = CommonHeaders(settings: settings)
        // Both responders are prepared in full up front, so a reload swaps complete answers; the
        // second exists only when HTTPS sends the header (`tls.hsts`), at the cost of a second set
        // of prepared files and page skeletons.
        func prepared(_ commonHeaders: CommonHeaders) throws -> LinkhostResponder {
            let publicDirectory = settings.publicDirectory
            let staticFiles = try StaticFiles.load(from: publicDirectory + "/static", commonHeaders: commonHeaders)
            var sites: [HostedSite] = []
            for site in configuration.sites {
                let pages = try SitePages(
                    site: site, publicDirectory: publicDirectory, publicScheme: settings.publicScheme, commonHeaders: commonHeaders,
                    trackedParameters: configuration.log.trackedParameters)
                sites.append(try HostedSite(site, cacheControl: settings.aasaCacheControl, pages: pages, commonHeaders: commonHeaders))
            }
            return try LinkhostResponder(
                sites: sites, unknownHostPolicy: settings.unknownHost, health: health, staticFiles: staticFiles, commonHeaders: commonHeaders,
                ingestKeys: ingestKeys, limiter: limiter, clientClasses: clientClasses)
        }
        responder = try prepared(commonHeaders)
        plainResponder = commonHeaders.strictTransportSecurity == nil ? responder : try prepared(.none)
    }

    /// The ids of the sites whose served AASA file differs between `self` and `other` (added,
    /// removed or changed bytes), in this set's order and then `other`'s.
    func sitesWithChangedAASA(comparedTo other: ServingSet) -> [String] {
        let before = Dictionary(other.configuration.sites.map { ($0.id, $0.aasa.bytes) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(configuration.sites.map { ($0.id, $0.aasa.bytes) }, uniquingKeysWith: { first, _ in first })
        let changed = configuration.sites.map(\.id).filter { before[$0] != after[$0] }
        let removed = other.configuration.sites.map(\.id).filter { after[$0] == nil }
        return changed + removed
    }
}
