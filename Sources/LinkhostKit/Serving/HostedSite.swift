import HTTPServing

/// A configured site made ready to serve: every fixed response is built once at start-up, so a
/// request for the AASA file or assetlinks.json costs a host lookup and a queue call, nothing more.
final class HostedSite: Sendable {
    let configuration: SiteConfiguration
    let aasa: PreparedWellKnownFile
    /// `nil` when the app has no Android block: the path then answers 404.
    let assetLinks: PreparedWellKnownFile?
    let pages: SitePages

    init(_ configuration: SiteConfiguration, cacheControl: String, pages: SitePages, commonHeaders: CommonHeaders) throws(HTTPServerError) {
        self.configuration = configuration
        self.pages = pages
        aasa = try PreparedWellKnownFile(bytes: configuration.aasa.bytes, cacheControl: cacheControl, commonHeaders: commonHeaders)
        if let file = configuration.assetLinks {
            assetLinks = try PreparedWellKnownFile(bytes: file.bytes, cacheControl: cacheControl, commonHeaders: commonHeaders)
        } else {
            assetLinks = nil
        }
    }
}
