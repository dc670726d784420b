import HTTPServing

/// A configured site made ready to serve: every fixed response is built once at start-up, so a
/// request for the AASA file costs a host lookup and a queue call, nothing more.
final class HostedSite: Sendable {
    let configuration: SiteConfiguration
    let aasaTag: String
    let aasaResponse: PreparedResponse
    let aasaNotModified: PreparedResponse
    let pages: SitePages

    init(_ configuration: SiteConfiguration, cacheControl: String, pages: SitePages, commonHeaders: CommonHeaders) throws(HTTPServerError) {
        self.configuration = configuration
        self.pages = pages
        aasaTag = EntityTag.strong(for: configuration.aasa.bytes)
        // Exactly `application/json` (no charset parameter): it is what Apple's checklists and
        // validators look for, and JSON is UTF-8 by definition.
        aasaResponse = try PreparedResponse(
            status: 200,
            headers: commonHeaders.applied(to: [
                "Content-Type": "application/json",
                "ETag": aasaTag,
                "Cache-Control": cacheControl,
                "X-Content-Type-Options": "nosniff",
            ]),
            body: configuration.aasa.bytes
        )
        aasaNotModified = try aasaResponse.notModified(headers: commonHeaders.applied(to: ["ETag": aasaTag, "Cache-Control": cacheControl]))
    }
}
